/**
 * The resources of one task's bags: its SpongeFiles ({@link org.spongefiles.bag.task.BagTask},
 * opened at the first spill, closed when the task ends), which task a new bag belongs to ({@link
 * org.spongefiles.bag.task.TaskSponges}), the memory ledger of the bags' readers and writers, the
 * counters, and the settings parsed once from the task's configuration.
 *
 * <p>Imports sponge-core and {@code org.spongefiles.bag.filler} (the type of a setting); never the
 * bags or their runs, which stand on it.
 */
package org.spongefiles.bag.task;
