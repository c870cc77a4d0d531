/**
 * Emulated nodes from this host's kernel, as root: spill disks of a class ({@link
 * org.spongefiles.emulator.EmulatedDisk}, {@link org.spongefiles.emulator.DiskClass}), YARN-style
 * memory containers ({@link org.spongefiles.emulator.MemoryContainer}), neighbours on the same disk
 * ({@link org.spongefiles.emulator.Neighbours}) and a shaped rack network ({@link
 * org.spongefiles.emulator.RackNetwork}) whose nodes run their own sponge server on a tmpfs pool,
 * with ZooKeeper and the memory tracker in the switch namespace ({@link
 * org.spongefiles.emulator.RackServices}). Every host name starts with {@code spongebench-<pid>-};
 * what it makes is a {@link org.spongefiles.emulator.HostResource} that {@link
 * org.spongefiles.emulator.Teardown} removes at exit (Ctrl-C too), and {@link
 * org.spongefiles.emulator.StaleResources} removes what a killed run left. {@link
 * org.spongefiles.emulator.EmulatorSupport} names what this host cannot run. A multi-node Hadoop
 * cluster on two routed racks, with the distribution installed on every node, is in {@link
 * org.spongefiles.emulator.cluster}.
 *
 * <p>Imports sponge-core, sponge-server, the tracker and the test kit; sponge-bench and sponge-it
 * (its cluster tests) import it.
 */
package org.spongefiles.emulator;
