/**
 * What operators use: {@code bin/sponge status} over a real embedded rack, and the Grafana
 * dashboard's queries against the metrics the daemons export.
 */
package org.spongefiles.it.ops;
