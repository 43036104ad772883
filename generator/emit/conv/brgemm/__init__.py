"""brgemm: oneDNN's batch-reduce GEMM convolution (brg_conv_fwd) as a generated microkernel, one per
instruction (templates/brgemm/), in one file per concern as oneDNN's src/cpu/x64/brgemm/:

* isa.py: the microkernels (`BrgemmIsa`) and which one runs a problem;
* fusion.py: what the kernel does itself (the epilogue in its stores, blocked layouts in place);
* blocking.py: the register and row blocking heuristics;
* weights.py: the weights packed once in prepare;
* kernel.py: the compute step, planned as one `brgemm` step (emit.brgemm_step: the record the
  templates read, its microkernel, geometry and store parts).

Data flows one way: isa <- fusion <- blocking <- weights, kernel."""
