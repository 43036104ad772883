"""The benchdnn front end: command lines, batch and list files of oneDNN's benchdnn, for the reorder and
conv drivers (`driver` holds what they share), and each case as the problem it describes."""
