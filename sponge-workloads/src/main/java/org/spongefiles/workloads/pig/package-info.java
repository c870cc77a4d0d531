/**
 * The Pig workloads of the evaluation (spam quantiles, top-k, joins), the Pig JVMs that run them
 * and the reference outputs they are checked against.
 *
 * <p>May import pig-databag, sponge-core and the test kit; sponge-it, sponge-bench and
 * sponge-examples import it.
 */
package org.spongefiles.workloads.pig;
