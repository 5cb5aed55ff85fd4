"""tpbgen: AWS Neuron TPB arch-ISA headers -> typed, validated, executable Python runtime.

The stages, each in its own module or package, every arrow forward:

    discover -> preprocess -> parse -> ir (model, layout, comments) -> reconcile
             -> translate -> emit            audit reads the IR only
"""

__version__ = "0.1.0"
