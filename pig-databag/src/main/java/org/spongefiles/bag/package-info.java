/**
 * Pig bags (default, sorted, distinct) that spill to SpongeFiles instead of local temporary files,
 * and the bag factory Pig loads through {@code pig.data.bag.factory.name}.
 *
 * <p>Imports sponge-core only; no module but integration imports it.
 */
package org.spongefiles.bag;
