/**
 * SpongeFiles for a task: {@link org.spongefiles.core.SpongeTask} opens them, {@link
 * org.spongefiles.core.SpongeFile} is one spilled file, written and read through its streams. This
 * package is the edge of sponge-core: it alone reads {@code sponge.*} keys (declared in {@link
 * org.spongefiles.core.SpongeOptions}, turned into typed values by {@link
 * org.spongefiles.core.SpongeSettings}) and wires the packages below together.
 *
 * <p>Owns: the task, the file state machine, the write and read streams, building the tier chain.
 * Must not be imported by any other package of sponge-core (they receive values, never keys).
 */
package org.spongefiles.core;
