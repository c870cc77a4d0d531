/**
 * The leaky reducer in real MapReduce jobs: outputs against the naive reducer's, heap limits and
 * least-heap sweeps in child JVMs.
 */
package org.spongefiles.it.leaky;
