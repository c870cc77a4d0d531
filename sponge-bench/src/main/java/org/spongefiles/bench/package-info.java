/**
 * The benchmarks of the papers' experiments, one sub-package per family ({@code transfer}, {@code
 * median}, {@code pig}, {@code leaky}, {@code node} for the node emulator, {@code dashboard},
 * {@code tracker} for the tracker at cluster scale); here only what they share: {@link
 * org.spongefiles.workloads.BenchReport} (in sponge-workloads: the {@code BENCH} line format),
 * {@link org.spongefiles.bench.Contention} (neighbour load), {@link
 * org.spongefiles.testkit.ChildProcesses} (child JVM command lines and output) and {@link
 * org.spongefiles.bench.SocketReads} (the raw-socket baselines' reads). Each benchmark is a main
 * class writing {@code BENCH} lines.
 *
 * <p>May import every module; no module imports it.
 */
package org.spongefiles.bench;
