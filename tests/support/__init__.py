"""Test-only helpers shared by several test packages and the benchmarks."""
