/**
 * Plain HashMap reducers, the baseline the leaky reducers are measured against: same inputs, same
 * output types and reducer contracts, all state on the heap.
 *
 * <p>May import {@code org.spongefiles.leaky.mapreduce} for the shared key and value types and
 * reducer names; must not be imported by the leaky hashtable or its reducers.
 */
package org.spongefiles.leaky.baseline;
