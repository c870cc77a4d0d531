/**
 * Where a task's bytes went and how long it waited: {@link org.spongefiles.core.stats.SpongeStats},
 * published as Hadoop and Pig counters by the modules.
 *
 * <p>May import {@code tier} (for the tier kinds); must not be imported by {@code tier}, which
 * counts through {@link org.spongefiles.core.tier.TierWrites}.
 */
package org.spongefiles.core.stats;
