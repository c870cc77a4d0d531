/**
 * The distribution installed from its own tarball: daemons from {@code bin/}, a MiniMRYarnCluster
 * job and a Pig script using only the tarball's jars and recipe (failsafe: {@code InstallIT}).
 */
package org.spongefiles.it.install;
