/**
 * The node emulator the benchmarks start and tear down themselves, as root: spill disks of a class
 * ({@link org.spongefiles.integration.bench.node.EmulatedDisk}), YARN-style memory containers
 * ({@link org.spongefiles.integration.bench.node.MemoryContainer}), neighbours on the same disk
 * ({@link org.spongefiles.integration.bench.node.Neighbours}) and a shaped rack network ({@link
 * org.spongefiles.integration.bench.node.RackNetwork}) whose nodes run their own sponge server on a
 * tmpfs pool, with ZooKeeper and the memory tracker in the switch namespace ({@link
 * org.spongefiles.integration.bench.node.RackServices}). Every host name starts with {@code
 * spongebench-<pid>-}; what it makes is a {@link
 * org.spongefiles.integration.bench.node.HostResource} that {@link
 * org.spongefiles.integration.bench.node.Teardown} removes at exit (Ctrl-C too) and {@link
 * org.spongefiles.integration.bench.node.StaleResources} what a killed run left. {@link
 * org.spongefiles.integration.bench.node.EmulatorSupport} names what this host cannot run. The
 * benchmarks on it: DiskClassBench (raw disk per class), SpillClassBench (SpillBench's disk rows
 * and read-back per class), NodeSweep (the median job per cell), RemoteTierBench (the rack links).
 * Benchmark code only: nothing here is needed by users at runtime, and nothing outside the
 * benchmarks imports it.
 */
package org.spongefiles.integration.bench.node;
