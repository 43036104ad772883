"""Networks of convolutions and the ops between them: a DAG of layers and ops (`graph`), the layout
planner over measured costs (`plan`), the compiled plan that keeps activations on the device
(`execute`, `opkernel`), and the PyTorch side: the import (`torch_bridge`, `torch_ops`,
`torch_rewrite`), `generator.optimize` (`optimize`) and the zoo of small networks (`zoo`). PyTorch is
optional: only those import it."""
from .graph import Boundary, ConvLayer, Network, OpNode, load_network, parse_network, random_parameters

__all__ = ["Boundary", "ConvLayer", "Network", "OpNode", "load_network", "parse_network", "random_parameters"]
