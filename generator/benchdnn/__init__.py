"""The benchdnn front end: command lines, batch and list files of oneDNN's benchdnn, for the reorder and
conv drivers (`driver` holds what they share; `conv_desc` and `conv_post_ops` the convolution
descriptor and post-op grammars), and each case as the problem it describes."""
