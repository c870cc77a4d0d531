/**
 * The Pig workloads of the evaluation (spam quantiles, top-k, joins), the Pig JVMs that run them
 * and the reference outputs they are checked against.
 *
 * <p>May import pig-databag and sponge-core; no module imports it.
 */
package org.spongefiles.integration.pig;
