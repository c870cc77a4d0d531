/**
 * The MapReduce reducers built on the leaky hashtable (grouping and join), their input views and
 * counters.
 *
 * <p>May import {@code org.spongefiles.leaky} and sponge-core.
 */
package org.spongefiles.leaky.mapreduce;
