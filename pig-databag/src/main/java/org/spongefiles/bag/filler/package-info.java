/**
 * Who fills a bag: the Pig operators whose bags stock Pig limits ({@link
 * org.spongefiles.bag.filler.PigFillers}, the only place naming Pig's internal classes) and the
 * rule, {@code sponge.pig.bag.self.spill}, that finds them on the filling thread's stack ({@link
 * org.spongefiles.bag.filler.SelfSpill}).
 *
 * <p>The bottom of the module: imports nothing of SpongeFiles.
 */
package org.spongefiles.bag.filler;
