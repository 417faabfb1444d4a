"""The op engine: op-package loading, KernelMgr / OpKernel / OpKernelBin, executors, AI CPU task spaces."""
