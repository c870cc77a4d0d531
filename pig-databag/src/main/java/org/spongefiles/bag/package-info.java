/**
 * Pig bags (default, sorted, distinct) that spill to SpongeFiles instead of local temporary files,
 * and what users configure: the bag factory Pig loads through {@code pig.data.bag.factory.name}
 * ({@link org.spongefiles.bag.SpongeBagFactory}), the recipe ({@link
 * org.spongefiles.bag.PigRecipe}) and the keys ({@link org.spongefiles.bag.PigBagOptions}).
 *
 * <p>The top of the module's layers: bags stand on their runs ({@code bag.run}), which stand on the
 * task's resources ({@code bag.task}); who fills a bag is decided in {@code bag.filler}. Imports
 * sponge-core and those packages; none of them imports this one, and no module but the tests and
 * workloads imports it.
 */
package org.spongefiles.bag;
