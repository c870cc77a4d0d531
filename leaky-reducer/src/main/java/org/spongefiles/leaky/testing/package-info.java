/**
 * Test support for reducers, published in the module so that its tests and the integration
 * benchmarks use one copy: {@link org.spongefiles.leaky.testing.ReusedRecordBuffer} feeds a reducer
 * raw records the way Hadoop's merger does.
 *
 * <p>Uses Hadoop only; nothing in {@code org.spongefiles.leaky} imports it.
 */
package org.spongefiles.leaky.testing;
