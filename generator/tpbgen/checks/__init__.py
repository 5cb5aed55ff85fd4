"""Checks on one IR: reconcile (+ waivers), annotations, verify-cc. Each returns findings as values."""
