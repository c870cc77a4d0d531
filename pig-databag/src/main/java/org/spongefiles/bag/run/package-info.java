/**
 * Spill runs: a bag's spill is one run, a SpongeFile of tuples in Pig's binary format, written by
 * {@link org.spongefiles.bag.run.RunWriter}, read back by {@link
 * org.spongefiles.bag.run.RunReader}, merged in order by {@link org.spongefiles.bag.run.RunMerge};
 * {@link org.spongefiles.bag.run.SpillRuns} is one bag's list of them, and a run is deleted when
 * its last holder lets go.
 *
 * <p>Imports {@code org.spongefiles.bag.task} (the task whose SpongeFiles hold the runs) and
 * sponge-core; never the bags, which stand on it.
 */
package org.spongefiles.bag.run;
