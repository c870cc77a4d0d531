/** Test support for both daemons' startup-error tests, shipped in sponge-daemon's test-jar. */
package org.spongefiles.daemon.testing;
