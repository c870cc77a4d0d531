/**
 * The benchmarks on emulated nodes ({@code org.spongefiles.emulator}): DiskClassBench (raw disk per
 * class), SpillClassBench (SpillBench's disk rows and read-back per class), BlockedTimeBench
 * (stock's time blocked on spill I/O), NodeSweep (the median job per cell, local and remote),
 * PigNodeCells (the Pig queries per cell), RemoteTierBench (the rack links), and NodeResults, which
 * runs them all and writes every table and plot of docs/results/node-sweep.
 */
package org.spongefiles.bench.node;
