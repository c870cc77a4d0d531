/**
 * An emulated Hadoop cluster as root ({@link org.spongefiles.emulator.cluster.HadoopCluster}): a
 * master and workers on two racks of the emulator's shaped network, joined by routing through a
 * core namespace ({@link org.spongefiles.emulator.cluster.ClusterNetwork}), running Hadoop's own
 * daemons (NameNode, ResourceManager, JobHistoryServer; DataNode and NodeManager on each worker)
 * and the distribution's scripts (a trial ZooKeeper on the master, a sponge server on every worker,
 * trackers on two), configured by per-node site files as an operator writes them.
 *
 * <p>What Hadoop needed, found by running it here (Hadoop 3.4.3, JDK 17, as root):
 *
 * <ul>
 *   <li>Each daemon is {@code java -cp <conf dir>:<jars> <main class>}; the jars are
 *       hadoop-minicluster's Maven dependencies ({@link
 *       org.spongefiles.emulator.cluster.HadoopJars}) with hadoop-hdfs' test jar kept: it is the
 *       only artifact holding {@code webapps/hdfs}, without which the NameNode's HTTP server does
 *       not start. The other test jars hold a {@code log4j.properties} and a {@code
 *       capacity-scheduler.xml} and are left out; the master writes its own {@code
 *       capacity-scheduler.xml} (one {@code default} queue).
 *   <li>The ResourceManager and NodeManager web apps (Guice) need {@code
 *       --add-opens=java.base/java.lang=ALL-UNNAMED}; the daemons get Hadoop's own test list.
 *   <li>Host names: {@code ip netns exec} mounts {@code /etc/netns/<namespace>/hosts} over {@code
 *       /etc/hosts}, and {@code unshare --uts} with {@code hostname} gives each node its name; the
 *       NameNode's reverse lookup of DataNode addresses and YARN's node names then agree with
 *       {@code dfs.datanode.hostname} and {@code yarn.nodemanager.hostname}.
 *   <li>No JobHistoryServer, no counters: once the application master exits, the client asks the
 *       history server, so the master runs one (it waits for HDFS by itself).
 *   <li>YARN's containers run as root with the DefaultContainerExecutor (no LinuxContainerExecutor,
 *       no container-executor binary); {@code JAVA_HOME} reaches them from the NodeManager's
 *       environment. {@code yarn.application.classpath} and {@code mapreduce.application.classpath}
 *       name {@code $HADOOP_CONF_DIR} and the jars explicitly, so no {@code HADOOP_MAPRED_HOME} is
 *       needed; the tarball's {@code sponge-hadoop-<version>.jar} is added to the latter, as
 *       docs/operations.md says. A literal configuration directory there would be the submitting
 *       node's for every container (the job's configuration sets the classpath): tasks would miss
 *       their own node's mapred-site.xml and spill to the default pool, the host's {@code
 *       /dev/shm}, shared by every emulated node. {@code $HADOOP_CONF_DIR} is expanded in each
 *       container from its NodeManager's environment ({@code yarn.nodemanager.env-whitelist} passes
 *       it by default).
 *   <li>The NodeManager's disk health check refuses local directories on a disk more than 90% full:
 *       the run directory shares the host's disk, so the threshold is 99%.
 *   <li>A NameNode with no blocks leaves safe mode at once with {@code
 *       dfs.namenode.safemode.extension=0}; one-second DataNode heartbeats and 250 ms NodeManager
 *       heartbeats make the start and the jobs quicker.
 *   <li>A NodeManager killed with its containers is lost to the ResourceManager only after {@code
 *       yarn.nm.liveness-monitor.expiry-interval-ms} (10 minutes by default; 10 s here), and the
 *       application master runs the reduce that ran there again only after it gave up stopping that
 *       container ({@code yarn.client.nodemanager-connect.max-wait-ms}, 3 minutes, left at Hadoop's
 *       default): {@link org.spongefiles.emulator.cluster.HadoopCluster#kill} and {@code restart}
 *       act on one worker daemon ({@link org.spongefiles.emulator.cluster.WorkerDaemon}) for the
 *       fault tests.
 *   <li>A sponge server reads no core-site.xml: its rack comes from {@code
 *       net.topology.script.file.name} in its own {@code sponge-site.xml} (the same script).
 *   <li>Per-node {@code sponge.pool.dir} is a {@code <final>} property of the worker's
 *       mapred-site.xml, so the client's job configuration cannot replace it.
 * </ul>
 */
package org.spongefiles.emulator.cluster;
