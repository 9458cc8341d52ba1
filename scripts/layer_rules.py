"""The rule that scripts/check_layers.py (include/thinmpi) and scripts/check_bench_layers.py
(bench/) both check, written once: folders stand in layers (a list of lists, lowest first;
folders on one line share a layer), and a folder includes only its own files and folders of
lower layers, never one beside it or above it."""


def layer_of(layers, folder):
    """The rank of folder's layer, or None when it has none."""
    for rank, folders in enumerate(layers):
        if folder in folders:
            return rank
    return None


def include_violation(layers, rel, folder, rank, shown, to):
    """What is wrong with `rel` (in `folder`, of layer `rank`) including `shown` (a file of
    folder `to`), or None when the include keeps the layers."""
    if to == folder:
        return None
    to_rank = layer_of(layers, to)
    if to_rank is None:
        return f"{rel} includes {shown}: folder '{to or '.'}' is not in a layer"
    if to_rank >= rank:
        how = "beside" if to_rank == rank else "above"
        return (f"{rel} includes {shown}: folder '{to}' stands {how} '{folder}' "
                f"(a folder includes only folders below it)")
    return None
