"""Rewrites of the traced graph before import.

In-place nodes (``x += y``, ``x.relu_()``, ``nn.ReLU(inplace=True)``) change the tensor they read, and
return it: every reader of that tensor after the node reads the node's result instead
(`functionalize_in_place`), so that the data flow says what eager mode does through the alias and
kgen, which writes new tensors, computes the same.

Identity and Dropout modules (the model is in eval mode: both return their input) are dropped, so that
they do not cut a segment (`drop_identities`).

A channels-last region, as ConvNeXt and transformer-style
blocks write it over an N x C x spatial tensor,

    x.permute(0, 2, 3, 1) -> LayerNorm(C) -> Linear -> activation -> Linear ... -> .permute(0, 3, 1, 2)

is the same computation on the tensor as it is: a `ChannelNorm` (LayerNorm over the channels without
its affine), then each Linear as a 1x1 convolution (the LayerNorm's scale and shift folded into the
Linear after it), the activations as they are. kgen then runs the whole region: the norm as an op,
the Linears as conv layers with their activations fused.

A region is rewritten only when it is exactly that: the permutes each other's inverse, every node
between them with one user, a LayerNorm over the last dim alone followed by a Linear, the Linears, the
activations kgen fuses (`torch_ops.eltwise_of`), Dropout and Identity. Anything else leaves it to
PyTorch as written.
"""
from __future__ import annotations

from ..errors import UnsupportedError
from .torch_ops import channel_norm_module, eltwise_of, in_place


def _permute_dims(node) -> tuple[int, ...] | None:
    """The dims of a permute node, or None."""
    import torch
    if node.op == "call_method" and node.target == "permute":
        dims = node.args[1:]
    elif node.op == "call_function" and node.target is torch.permute:
        dims = node.args[1:] or (node.kwargs.get("dims"),)
    else:
        return None
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    return tuple(dims) if all(isinstance(d, int) for d in dims) else None


def _to_last(nd: int) -> tuple[int, ...]:
    return (0, *range(2, nd), 1)


def _from_last(nd: int) -> tuple[int, ...]:
    return (0, nd - 1, *range(1, nd - 1))


def _region(torch, start, modules):
    """The chain of nodes from the permute `start` to its inverse permute, or None."""
    nn = torch.nn
    dims = _permute_dims(start)
    if dims is None or not 3 <= len(dims) <= 5 or dims != _to_last(len(dims)):
        return None
    nd, chain, cur = len(dims), [], start
    while True:
        users = list(cur.users)
        if len(users) != 1:
            return None
        u = users[0]
        if _permute_dims(u) == _from_last(nd):
            linear = any(k == "linear" for k, _ in chain)
            return (chain, u, nd) if linear and chain[-1][0] != "norm" else None
        m = modules.get(u.target) if u.op == "call_module" else None
        if isinstance(m, nn.LayerNorm) and len(m.normalized_shape) == 1:
            chain.append(("norm", u))
        elif isinstance(m, nn.Linear):
            chain.append(("linear", u))
        elif isinstance(m, (nn.Dropout, nn.Identity)):
            chain.append(("pass", u))
        elif eltwise_of(torch, u, modules) is not None:
            chain.append(("act", u))
        else:
            return None
        if len(chain) > 1 and chain[-2][0] == "norm" and chain[-1][0] != "linear":
            return None             # the norm's affine folds into a Linear right after it
        cur = u


_VIEW_METHODS = frozenset({"view", "view_as", "reshape", "narrow", "permute", "transpose", "t", "expand",
                           "expand_as", "select", "unsqueeze", "squeeze", "flatten", "unflatten", "chunk",
                           "split", "contiguous", "movedim"})
_VIEW_FUNCTIONS = frozenset({"narrow", "select", "flatten", "reshape", "transpose", "permute", "squeeze",
                             "unsqueeze", "chunk", "split", "movedim"})
_SPLITS = frozenset({"chunk", "split", "unbind"})


def _is_view(node) -> bool:
    """`node` is a view of its first argument (or an item of a chunk / split of it). The graph has no
    shapes yet: ``t[i]`` is taken as a view only where `t` is a chunk or split, or the index slices."""
    import operator

    import torch.fx as fx
    if not (node.args and isinstance(node.args[0], fx.Node)):
        return False
    if node.op == "call_method":
        return node.target in _VIEW_METHODS
    if node.op != "call_function":
        return False
    if node.target is operator.getitem:
        src, index = node.args[0], node.args[1] if len(node.args) > 1 else None
        split = (src.op == "call_method" and src.target in _SPLITS) or \
            (src.op == "call_function" and getattr(src.target, "__name__", "") in _SPLITS)
        return split or isinstance(index, (slice, tuple))
    return getattr(node.target, "__name__", "") in _VIEW_FUNCTIONS


def _view_base(node):
    """The tensor `node` is a view of (following views of views), or None when it is no view."""
    base = None
    while _is_view(node):
        node = base = node.args[0]
    return base


def functionalize_in_place(gm) -> int:
    """The readers after each in-place node of the tensor it changes rewired to its result; returns how
    many readers. An in-place change of a view whose base is read after it is an `UnsupportedError`:
    the change reaches the base only through the alias, which kgen's tensors do not share."""
    import torch.fx as fx

    modules = dict(gm.named_modules())
    order = {n: i for i, n in enumerate(gm.graph.nodes)}
    done = 0
    for n in gm.graph.nodes:
        if not (in_place(n, modules) and n.args and isinstance(n.args[0], fx.Node)):
            continue
        x = n.args[0]
        base = _view_base(x)
        if base is not None and any(order[u] > order[n] for u in base.users):
            raise UnsupportedError(f"{n.name} changes {x.name} in place, a view of {base.name}, which is read "
                                   f"after it: kgen cannot follow a change through a view (write it out of place)")
        for u in [u for u in x.users if u is not n and order[u] > order[n]]:
            u.replace_input_with(x, n)
            done += 1
    if done:
        gm.recompile()
    return done


def drop_identities(torch, gm) -> int:
    """Every Identity and Dropout module call replaced by its input; returns how many."""
    nn = torch.nn
    kinds = (nn.Identity, nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout)
    modules = dict(gm.named_modules())
    done = 0
    for n in list(gm.graph.nodes):
        if n.op == "call_module" and isinstance(modules.get(n.target), kinds) and len(n.args) == 1 and not n.kwargs:
            n.replace_all_uses_with(n.args[0])
            gm.graph.erase_node(n)
            done += 1
    if done:
        gm.recompile()
    return done


def rewrite_channels_last(torch, gm) -> int:
    """Every channels-last region of `gm` rewritten (module doc); returns how many."""
    modules = dict(gm.named_modules())
    graph = gm.graph
    ChannelNorm = channel_norm_module(torch)
    done = 0
    for start in list(graph.nodes):
        if start.graph is not graph:        # erased by an earlier rewrite
            continue
        found = _region(torch, start, modules)
        if found is None:
            continue
        chain, end, nd = found
        conv = (torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d)[nd - 3]
        affine = None
        with graph.inserting_before(end):
            cur = start.args[0]
            for kind, node in chain:
                m = modules.get(node.target) if node.op == "call_module" else None
                if kind == "norm":
                    name = f"kgen_channel_norm_{done}_{node.name}"
                    gm.add_submodule(name, ChannelNorm(m.normalized_shape[0], float(m.eps)))
                    cur = graph.call_module(name, (cur,))
                    affine = (m.weight, m.bias)
                elif kind == "linear":
                    w = m.weight.detach().double()
                    b = m.bias.detach().double() if m.bias is not None else torch.zeros(w.shape[0], dtype=torch.float64)
                    if affine is not None:          # W (g * n + s) + b = (W g) n + (W s + b)
                        g, s = affine
                        if s is not None:
                            b = b + w @ s.detach().double()
                        if g is not None:
                            w = w * g.detach().double()[None, :]
                        affine = None
                    c = conv(w.shape[1], w.shape[0], 1)
                    with torch.no_grad():
                        c.weight.copy_(w.float().reshape(c.weight.shape))
                        c.bias.copy_(b.float())
                    name = f"kgen_linear_as_conv_{done}_{node.name}"
                    gm.add_submodule(name, c.eval())
                    cur = graph.call_module(name, (cur,))
                elif kind == "act":
                    prev = cur
                    cur = graph.node_copy(node, lambda a, prev=prev, node=node: prev if a is node.args[0] else a)
        end.replace_all_uses_with(cur)
        for n in [end, *[n for _, n in reversed(chain)], start]:
            graph.erase_node(n)
        done += 1
    if done:
        graph.lint()
        gm.recompile()
    return done
