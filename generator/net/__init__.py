"""Networks of convolutions: a DAG of layers (`graph`), the layout planner over measured costs
(`plan`), the compiled plan that keeps activations on the device (`execute`), and the PyTorch bridge
(`torch_bridge`, `generator.optimize`). PyTorch is optional: only the bridge imports it."""
from .graph import Boundary, ConvLayer, Network, load_network, parse_network, random_parameters

__all__ = ["Boundary", "ConvLayer", "Network", "load_network", "parse_network", "random_parameters"]
