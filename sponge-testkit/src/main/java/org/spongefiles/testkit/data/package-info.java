/**
 * Generators of benchmark input data.
 *
 * <p>May import Hadoop only; no SpongeFiles module.
 */
package org.spongefiles.testkit.data;
