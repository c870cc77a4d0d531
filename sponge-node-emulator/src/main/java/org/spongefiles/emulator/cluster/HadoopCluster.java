package org.spongefiles.emulator.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.spongefiles.emulator.EmulatedDisk;
import org.spongefiles.emulator.HostCommand;
import org.spongefiles.emulator.HostResource;
import org.spongefiles.emulator.Neighbours;
import org.spongefiles.emulator.NodeProcess;
import org.spongefiles.emulator.StaleResources;
import org.spongefiles.emulator.Teardown;

/**
 * A Hadoop cluster in network namespaces, installed and configured as an operator would: the master
 * runs a NameNode, a ResourceManager, a JobHistoryServer and the distribution's trial ZooKeeper
 * ({@code bin/sponge-zookeeper}); every worker a DataNode, a NodeManager with the {@code
 * mapreduce_shuffle} aux service and a sponge server ({@code bin/sponge-server}) on a tmpfs pool of
 * its own; the first worker of the first two racks also a memory tracker ({@code
 * bin/sponge-tracker}). Hadoop's daemons are the release's own main classes, each its own JVM, on
 * an installation made of {@link ClusterSettings#hadoopJars}; each node has its own configuration
 * directory ({@code core-site.xml} with a topology script mapping host names and addresses to
 * {@code /rack-<r>}, {@code hdfs-site.xml}, {@code yarn-site.xml}, {@code mapred-site.xml} with the
 * SpongeFiles keys, {@code capacity-scheduler.xml}) and SpongeFiles' ({@code sponge-site.xml}).
 * Ready when HDFS has every DataNode and has left safe mode, YARN every NodeManager, the history
 * server answers and the tracker sees every sponge server.
 *
 * <p>Closing kills every process in the cluster's namespaces (YARN's containers too), unmounts the
 * pools, removes the run directory and the namespaces; a {@link Teardown} hook does the same at
 * exit and on Ctrl-C, and {@link StaleResources} after a SIGKILL. With the system property {@code
 * sponge.cluster.logs} naming a directory, every node's logs are copied there first.
 */
public final class HadoopCluster extends HostResource {
  public static final int NAMENODE_PORT = 8020;
  public static final int NAMENODE_HTTP_PORT = 9870;
  public static final int RESOURCE_MANAGER_HTTP_PORT = 8088;
  public static final int HISTORY_PORT = 10020;
  public static final int HISTORY_HTTP_PORT = 19888;
  public static final int ZOOKEEPER_PORT = 2181;
  public static final int SERVER_PORT = 7071;
  public static final int SERVER_METRICS_PORT = 7072;
  public static final int TRACKER_PORT = 7073;
  public static final int TRACKER_METRICS_PORT = 7074;

  /** The java.base packages Hadoop's own test JVMs open (Guice in the web apps needs java.lang). */
  private static final List<String> OPENS =
      List.of(
          "java.io",
          "java.lang",
          "java.lang.reflect",
          "java.math",
          "java.net",
          "java.text",
          "java.util",
          "java.util.concurrent",
          "java.util.zip",
          "sun.security.util",
          "sun.security.x509");

  private static final long READY_MILLIS = 180_000;
  private static final Pattern LIVE_DATANODES =
      Pattern.compile("\"NumLiveDataNodes\"\\s*:\\s*(\\d+)");
  private static final Pattern SAFE_MODE = Pattern.compile("\"Safemode\"\\s*:\\s*\"([^\"]*)\"");
  private static final Pattern ACTIVE_NODES = Pattern.compile("\"activeNodes\"\\s*:\\s*(\\d+)");
  private static final Pattern SERVERS_UP =
      Pattern.compile("(?m)^sponge_tracker_servers_seen\\{state=\"up\"\\} ([0-9.]+)");

  private final ClusterSettings settings;

  /** The run directory: the installation, every node's configuration, data, logs and pool. */
  public final Path dir;

  private final Path hadoopLib;
  private final Path secret;
  private final Path topology;
  private final List<NodeProcess> daemons = new ArrayList<>();
  private final List<Path> mounted = new ArrayList<>();
  private final List<EmulatedDisk> disks = new ArrayList<>();
  private final List<Neighbours> neighbours = new ArrayList<>();
  private ClusterNetwork network;

  private HadoopCluster(ClusterSettings settings, Path dir) {
    this.settings = settings;
    this.dir = dir;
    this.hadoopLib = dir.resolve("hadoop/lib");
    this.secret = dir.resolve("secret");
    this.topology = dir.resolve("topology.sh");
  }

  /** Builds the network, installs and configures every node, starts the daemons, waits for all. */
  public static HadoopCluster start(ClusterSettings settings) throws IOException {
    Path dir = Files.createDirectories(settings.parent.resolve(Teardown.prefix() + "cluster"));
    HadoopCluster cluster = new HadoopCluster(settings, dir);
    cluster.open(cluster::startAll);
    return cluster;
  }

  private void startAll() throws IOException {
    network =
        ClusterNetwork.create(settings.racks, settings.workersPerRack, settings.linkBitsPerSecond);
    install();
    for (ClusterNode node : network.nodes()) {
      configure(node);
    }
    ClusterNode master = network.master();
    CompletableFuture<Void> format =
        async(
            () ->
                HostCommand.run(
                    master.run(
                        hadoopJava(
                            master,
                            "org.apache.hadoop.hdfs.server.namenode.NameNode",
                            128,
                            List.of("-format", "-nonInteractive", "-force"))),
                    environment(master)));
    CompletableFuture<Void> zookeeper =
        async(
            () ->
                HostCommand.run(
                    master.run(
                        List.of(
                            script("sponge-zookeeper"),
                            "start",
                            "--port",
                            Integer.toString(ZOOKEEPER_PORT),
                            "--data-dir",
                            nodeDir(master).resolve("zookeeper").toString())),
                    environment(master)));
    launch(
        master,
        "resourcemanager",
        "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager",
        384);
    for (ClusterNode worker : network.workers()) {
      launchWorker(worker, WorkerDaemon.DATANODE);
      launchWorker(worker, WorkerDaemon.NODEMANAGER);
    }
    join(List.of(format));
    launch(master, "namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode", 256);
    launch(master, "historyserver", "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer", 256);
    join(List.of(zookeeper));
    List<CompletableFuture<Void>> sponge = new ArrayList<>();
    for (ClusterNode tracker : trackers()) {
      sponge.add(async(() -> startSponge(tracker, WorkerDaemon.TRACKER)));
    }
    for (ClusterNode worker : network.workers()) {
      sponge.add(async(() -> startSponge(worker, WorkerDaemon.SPONGE_SERVER)));
    }
    join(sponge);
    awaitReady();
    for (EmulatedDisk disk : disks) {
      neighbours.add(Neighbours.start(disk, settings.neighbours));
    }
    // Closed before the network, disks and processes it made after it registered.
    Teardown.register(this);
  }

  /**
   * The installation every node shares: Hadoop's lib (links to the jars), the secret, the script.
   */
  private void install() throws IOException {
    Files.createDirectories(hadoopLib);
    Set<String> names = new HashSet<>();
    for (Path jar : settings.hadoopJars) {
      if (names.add(jar.getFileName().toString())) {
        Files.createSymbolicLink(hadoopLib.resolve(jar.getFileName()), jar.toAbsolutePath());
      }
    }
    // docs/operations.md, "Installing from the tarball": 32 random bytes, base64, mode 0640.
    HostCommand.run(
        "sh",
        "-c",
        "umask 0027; head -c 32 /dev/urandom | base64 > "
            + HostCommand.shellQuote(secret.toString()));
    StringBuilder script =
        new StringBuilder(
            "#!/bin/sh\n"
                + "# Hadoop's topology script: prints the rack of each host name or address.\n"
                + "for host in \"$@\"; do\n"
                + "  case \"$host\" in\n");
    for (ClusterNode worker : network.workers()) {
      script
          .append("    ")
          .append(worker.host)
          .append('|')
          .append(worker.address)
          .append(") printf '%s ' ")
          .append(worker.rackName())
          .append(" ;;\n");
    }
    script.append("    *) printf '%s ' /default-rack ;;\n  esac\ndone\necho\n");
    Files.writeString(topology, script.toString());
    Files.setPosixFilePermissions(topology, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Writes the node's Hadoop and SpongeFiles configuration; mounts a worker's pool. */
  private void configure(ClusterNode node) throws IOException {
    Path home = nodeDir(node);
    Path conf = Files.createDirectories(home.resolve("conf"));
    Path data = Files.createDirectories(home.resolve("data"));
    Files.createDirectories(javaTmp(node));
    // A worker's spills to disk (YARN's local directories) and blocks on its own disk, if any.
    Path localData = data;
    if (node.rack > 0 && settings.disk != null) {
      EmulatedDisk disk = EmulatedDisk.create(settings.disk, node.host, settings.diskBytes, dir);
      disks.add(disk);
      localData = disk.mount;
    }
    Files.createDirectories(home.resolve("logs"));
    // $HADOOP_CONF_DIR, not this node's directory: the job's configuration (the submitting
    // node's) sets the containers' classpath, and each NodeManager hands its own HADOOP_CONF_DIR
    // to its containers, so tasks read their node's site files (the pool's final keys).
    String classpath = "$HADOOP_CONF_DIR," + hadoopLib + "/*";
    new SiteFile()
        .set("fs.defaultFS", "hdfs://" + ClusterNetwork.MASTER + ":" + NAMENODE_PORT)
        .set("hadoop.tmp.dir", data.resolve("tmp"))
        .set("net.topology.script.file.name", topology)
        .write(conf.resolve("core-site.xml"));
    new SiteFile()
        .set("dfs.namenode.name.dir", data.resolve("name"))
        .set("dfs.datanode.data.dir", localData.resolve("datanode"))
        .set("dfs.replication", 2)
        .set("dfs.datanode.hostname", node.host)
        .set("dfs.namenode.safemode.extension", 0)
        .set("dfs.permissions.enabled", false)
        .set("dfs.heartbeat.interval", 1)
        .write(conf.resolve("hdfs-site.xml"));
    new SiteFile()
        .set("yarn.resourcemanager.hostname", ClusterNetwork.MASTER)
        .set("yarn.nodemanager.hostname", node.host)
        .set("yarn.nodemanager.aux-services", "mapreduce_shuffle")
        .set(
            "yarn.nodemanager.aux-services.mapreduce_shuffle.class",
            "org.apache.hadoop.mapred.ShuffleHandler")
        .set(
            "yarn.nodemanager.resource.memory-mb",
            node.rack > 0 ? settings.nodeManagerMb(node) : 1024)
        .set("yarn.nodemanager.resource.cpu-vcores", 4)
        .set("yarn.nodemanager.vmem-check-enabled", false)
        .set("yarn.nodemanager.local-dirs", localData.resolve("nm-local"))
        .set("yarn.nodemanager.log-dirs", home.resolve("logs/containers"))
        // The run directory is on the host's disk, shared with everything else there.
        .set("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", 99)
        .set("yarn.scheduler.minimum-allocation-mb", 128)
        .set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 250)
        // A NodeManager silent for 10 s (not 10 min) is lost: its containers are reported dead.
        .set("yarn.nm.liveness-monitor.expiry-interval-ms", 10_000)
        .set("yarn.application.classpath", classpath)
        .write(conf.resolve("yarn-site.xml"));
    String tasks =
        classpath + "," + onlyJar(settings.spongeHome.resolve("hadoop"), "sponge-hadoop-");
    SiteFile mapred =
        new SiteFile()
            .set("mapreduce.framework.name", "yarn")
            .set("mapreduce.application.classpath", tasks)
            .set("mapreduce.jobhistory.address", ClusterNetwork.MASTER + ":" + HISTORY_PORT)
            .set(
                "mapreduce.jobhistory.webapp.address",
                ClusterNetwork.MASTER + ":" + HISTORY_HTTP_PORT)
            .setAll(taskSite());
    Path pool = null;
    if (node.rack > 0) {
      pool = Files.createDirectories(dir.resolve(Teardown.prefix() + node.host + "-pool"));
      HostCommand.run(
          "mount",
          "-t",
          "tmpfs",
          "-o",
          "size=" + (settings.poolBytes(node.rack) + (16L << 20)),
          "tmpfs",
          pool.toString());
      mounted.add(pool);
      mapred
          .setFinal("sponge.pool.dir", pool)
          .setFinal("sponge.pool.size", settings.poolBytes(node.rack));
    }
    mapred.write(conf.resolve("mapred-site.xml"));
    Files.writeString(
        conf.resolve("capacity-scheduler.xml"),
        "<?xml version=\"1.0\"?>\n<configuration>\n"
            + "  <property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>\n"
            + "  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>\n"
            + "  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.5</value></property>\n"
            // One container per node heartbeat: a job's tasks spread over the nodes.
            + "  <property><name>yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled</name><value>false</value></property>\n"
            + "</configuration>\n");
    Files.writeString(
        conf.resolve("log4j.properties"),
        "log4j.rootLogger=INFO, console\n"
            + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.appender.console.layout.ConversionPattern=%d %p %c{1}: %m%n\n");

    Path spongeConf = Files.createDirectories(home.resolve("sponge-conf"));
    Files.copy(
        settings.spongeHome.resolve("conf/log4j.properties"),
        spongeConf.resolve("log4j.properties"),
        StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        settings.spongeHome.resolve("conf/log4j-cli.properties"),
        spongeConf.resolve("log4j-cli.properties"),
        StandardCopyOption.REPLACE_EXISTING);
    SiteFile site =
        new SiteFile()
            .set("sponge.zookeeper.quorum", ClusterNetwork.MASTER + ":" + ZOOKEEPER_PORT)
            .set("sponge.auth.secret.file", secret)
            // A server reads no core-site.xml: its rack comes from the same script, named here.
            .set("net.topology.script.file.name", topology)
            .set("sponge.node.id", node.host);
    if (pool != null) {
      site.set("sponge.pool.dir", pool)
          .set("sponge.pool.size", settings.poolBytes(node.rack))
          .set("sponge.server.port", SERVER_PORT)
          .set("sponge.server.metrics.port", SERVER_METRICS_PORT)
          .set("sponge.server.address", node.host + ":" + SERVER_PORT)
          .setAll(settings.serverSite);
    }
    site.write(spongeConf.resolve("sponge-site.xml"));
  }

  /**
   * The README's mapred-site.xml snippet with this cluster's values for its examples: the trackers,
   * the secret file, the pool's size; {@code sponge.rack} left out, as the README says for several
   * racks (each task's rack comes from the topology script).
   */
  private Map<String, String> taskSite() {
    Map<String, String> site = new java.util.LinkedHashMap<>(settings.taskSite);
    site.remove("sponge.rack");
    site.replace("sponge.tracker.addresses", trackerAddresses());
    site.replace("sponge.auth.secret.file", secret.toString());
    // The pool's keys are each worker's own (final there); the master has no pool.
    site.remove("sponge.pool.size");
    return site;
  }

  private static Path onlyJar(Path dir, String prefix) throws IOException {
    try (Stream<Path> jars = Files.list(dir)) {
      List<Path> found =
          jars.filter(p -> p.getFileName().toString().startsWith(prefix))
              .collect(Collectors.toList());
      if (found.size() != 1) {
        throw new IOException("Expected one " + prefix + "*.jar in " + dir + ", found " + found);
      }
      return found.get(0);
    }
  }

  /** Starts a sponge daemon of {@code node} with the distribution's script, as at the start. */
  private void startSponge(ClusterNode node, WorkerDaemon daemon) throws IOException {
    List<String> command = new ArrayList<>(List.of(script("sponge-" + daemon.name), "start"));
    if (daemon == WorkerDaemon.TRACKER) {
      command.addAll(
          List.of(
              "-Dsponge.tracker.bind.host=0.0.0.0",
              "-Dsponge.tracker.port=" + TRACKER_PORT,
              "-Dsponge.tracker.address=" + node.host + ":" + TRACKER_PORT,
              "-Dsponge.tracker.metrics.port=" + TRACKER_METRICS_PORT,
              "-Dsponge.tracker.leader.check.interval=250ms"));
    }
    HostCommand.run(node.run(command), environment(node));
  }

  private void launchWorker(ClusterNode worker, WorkerDaemon daemon) throws IOException {
    launch(worker, daemon.name, daemon.main, daemon.heapMb);
  }

  /**
   * Kills {@code daemon} of {@code node} with SIGKILL, as a crash or an OOM kill would, and waits
   * until it is gone; returns its pid. What it started (YARN's containers) keeps running: {@link
   * #killContainers} kills those.
   */
  public long kill(ClusterNode node, WorkerDaemon daemon) throws IOException {
    long pid;
    if (daemon.main == null) {
      Path pidFile = nodeDir(node).resolve("run/sponge-" + daemon.name + "-default.pid");
      pid = Long.parseLong(Files.readString(pidFile).trim());
    } else {
      String name = daemon.name + " of " + node.host;
      NodeProcess process =
          daemons.stream()
              .filter(running -> running.name().equals(name))
              .findFirst()
              .orElseThrow(() -> new IOException("No " + name + " runs in the cluster"));
      daemons.remove(process);
      pid = process.pid();
    }
    ProcessHandle handle =
        ProcessHandle.of(pid)
            .orElseThrow(() -> new IOException(daemon + " of " + node + ": no process " + pid));
    handle.destroyForcibly();
    handle.onExit().join();
    return pid;
  }

  /**
   * Kills with SIGKILL every process of YARN's containers on {@code node} (their command lines name
   * a {@code container_} directory), as when the node's NodeManager dies with them; returns how
   * many.
   */
  public int killContainers(ClusterNode node) throws IOException {
    Map<Long, String> containers = processes(node, "container_");
    for (long pid : containers.keySet()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    for (long pid : containers.keySet()) {
      ProcessHandle.of(pid).ifPresent(process -> process.onExit().join());
    }
    return containers.size();
  }

  /**
   * Starts {@code daemon} of {@code node} again (after {@link #kill}) and waits until the cluster
   * is ready again, as at the start.
   */
  public void restart(ClusterNode node, WorkerDaemon daemon) throws IOException {
    if (daemon.main == null) {
      startSponge(node, daemon);
    } else {
      launchWorker(node, daemon);
    }
    awaitReady();
  }

  /**
   * The processes running on {@code node} (in its network namespace) whose command line contains
   * {@code fragment}, pid to command line (arguments joined by spaces).
   */
  public Map<Long, String> processes(ClusterNode node, String fragment) throws IOException {
    Map<Long, String> found = new java.util.TreeMap<>();
    for (String pid :
        HostCommand.attempt("ip", "netns", "pids", node.namespace).output.split("\\s+")) {
      if (!pid.matches("\\d+")) {
        continue;
      }
      Path cmdline = Path.of("/proc", pid, "cmdline");
      String command;
      try {
        command = new String(Files.readAllBytes(cmdline), java.nio.charset.StandardCharsets.UTF_8);
      } catch (IOException gone) {
        continue;
      }
      command = command.replace('\0', ' ').trim();
      if (command.contains(fragment)) {
        found.put(Long.parseLong(pid), command);
      }
    }
    return found;
  }

  private void launch(ClusterNode node, String daemon, String main, int heapMb) throws IOException {
    Path log = nodeDir(node).resolve("logs/" + daemon + ".log");
    daemons.add(
        NodeProcess.launch(
            daemon + " of " + node.host,
            node.run(hadoopJava(node, main, heapMb, List.of())),
            environment(node),
            log));
  }

  /** {@code java} running one of Hadoop's main classes on {@code node}'s installation. */
  private List<String> hadoopJava(ClusterNode node, String main, int heapMb, List<String> args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                javaHome().resolve("bin/java").toString(),
                "-Xmx" + heapMb + "m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                // The daemons' web servers unpack into java.io.tmpdir: the node's, gone with the
                // run directory at teardown, not the machine's /tmp.
                "-Djava.io.tmpdir=" + javaTmp(node),
                "-Dhadoop.log.dir=" + nodeDir(node).resolve("logs"),
                "-Dyarn.log.dir=" + nodeDir(node).resolve("logs")));
    OPENS.forEach(pkg -> command.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED"));
    command.addAll(List.of("-cp", classpath(node), main));
    command.addAll(args);
    return command;
  }

  /** A client's classpath on {@code node}: its configuration directory, then Hadoop's jars. */
  public String classpath(ClusterNode node) {
    return nodeDir(node).resolve("conf") + ":" + hadoopLib + "/*";
  }

  /**
   * The environment of what runs on {@code node}: Java, and where SpongeFiles' scripts keep state.
   */
  public Map<String, String> environment(ClusterNode node) {
    Path home = nodeDir(node);
    Map<String, String> environment = new HashMap<>();
    environment.put("JAVA_HOME", javaHome().toString());
    environment.put("HADOOP_CONF_DIR", home.resolve("conf").toString());
    environment.put("SPONGE_CONF_DIR", home.resolve("sponge-conf").toString());
    environment.put("SPONGE_LOG_DIR", home.resolve("logs").toString());
    environment.put("SPONGE_PID_DIR", home.resolve("run").toString());
    environment.put("SPONGE_SERVER_OPTS", "-Xmx96m -XX:+UseSerialGC");
    environment.put("SPONGE_TRACKER_OPTS", "-Xmx64m -XX:+UseSerialGC");
    environment.put("SPONGE_ZOOKEEPER_OPTS", "-Xmx96m -XX:+UseSerialGC");
    return environment;
  }

  private static Path javaHome() {
    return Path.of(System.getProperty("java.home"));
  }

  private String script(String name) {
    return settings.spongeHome.resolve("bin").resolve(name).toString();
  }

  private Path nodeDir(ClusterNode node) {
    return dir.resolve(node.host);
  }

  /** The Java temporary directory of what runs on {@code node}. */
  private Path javaTmp(ClusterNode node) {
    return nodeDir(node).resolve("java-tmp");
  }

  /** The workers running a memory tracker: the first of each of the first two racks. */
  public List<ClusterNode> trackers() {
    List<ClusterNode> trackers = new ArrayList<>();
    int rack = 0;
    for (ClusterNode worker : network.workers()) {
      if (worker.rack != rack && trackers.size() < 2) {
        trackers.add(worker);
        rack = worker.rack;
      }
    }
    return trackers;
  }

  /** The trackers as tasks name them, {@code host:port,host:port}. */
  public String trackerAddresses() {
    return trackers().stream()
        .map(tracker -> tracker.host + ":" + TRACKER_PORT)
        .collect(Collectors.joining(","));
  }

  public ClusterNetwork network() {
    return network;
  }

  public ClusterNode master() {
    return network.master();
  }

  public List<ClusterNode> workers() {
    return network.workers();
  }

  /** {@code bin/sponge status --json} run on {@code node}: the rack report from its trackers. */
  public String spongeStatus(ClusterNode node) throws IOException {
    return HostCommand.run(
        node.run(List.of(script("sponge"), "status", "--json")), environment(node));
  }

  private void awaitReady() throws IOException {
    long deadline = System.currentTimeMillis() + READY_MILLIS;
    int workers = network.workers().size();
    String state = "";
    while (System.currentTimeMillis() < deadline) {
      for (NodeProcess daemon : daemons) {
        if (!daemon.isAlive()) {
          throw new IOException(daemon + " exited while the cluster started; see " + dir);
        }
      }
      String hdfs =
          fetch("http://master:" + NAMENODE_HTTP_PORT + "/jmx?qry=Hadoop:service=NameNode,name=*");
      String yarn = fetch("http://master:" + RESOURCE_MANAGER_HTTP_PORT + "/ws/v1/cluster/metrics");
      String history = fetch("http://master:" + HISTORY_HTTP_PORT + "/ws/v1/history/info");
      // Only the leader has a view of the servers; either tracker may have won the election.
      StringBuilder tracker = new StringBuilder();
      for (ClusterNode node : trackers()) {
        tracker.append(fetch("http://" + node.host + ":" + TRACKER_METRICS_PORT + "/metrics"));
      }
      int dataNodes = first(LIVE_DATANODES, hdfs);
      Matcher safeMode = SAFE_MODE.matcher(hdfs);
      boolean safe = !safeMode.find() || !safeMode.group(1).isEmpty();
      int nodeManagers = first(ACTIVE_NODES, yarn);
      Matcher up = SERVERS_UP.matcher(tracker);
      int servers = -1;
      while (up.find()) {
        servers = Math.max(servers, (int) Double.parseDouble(up.group(1)));
      }
      state =
          String.format(
              Locale.ROOT,
              "datanodes %d, safe mode %s, nodemanagers %d, history server %s, sponge servers %d"
                  + " (of %d each)",
              dataNodes,
              safe ? "on" : "off",
              nodeManagers,
              history.contains("historyInfo") ? "up" : "down",
              servers,
              workers);
      if (dataNodes == workers
          && !safe
          && nodeManagers == workers
          && history.contains("historyInfo")
          && servers == workers) {
        return;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted waiting for the cluster", e);
      }
    }
    throw new IOException(
        "The cluster was not ready within " + READY_MILLIS + " ms: " + state + "; see " + dir);
  }

  /** {@code url} fetched on the master; empty when it does not answer. */
  public String fetch(String url) throws IOException {
    HostCommand.Outcome outcome =
        HostCommand.attempt(
            List.of(
                "ip",
                "netns",
                "exec",
                network.master().namespace,
                "curl",
                "-s",
                "--max-time",
                "5",
                url));
    return outcome.ok() ? outcome.output : "";
  }

  private static int first(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
  }

  /** One step of the start, run on another thread. */
  private interface Action {
    void run() throws IOException;
  }

  private static CompletableFuture<Void> async(Action action) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            action.run();
          } catch (IOException e) {
            throw new CompletionException(e);
          }
        });
  }

  private static void join(List<CompletableFuture<Void>> steps) throws IOException {
    IOException failure = null;
    for (CompletableFuture<Void> step : steps) {
      try {
        step.join();
      } catch (CompletionException e) {
        if (failure == null) {
          failure = new IOException(e.getCause().getMessage(), e.getCause());
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  protected void release() throws IOException {
    IOException failure = null;
    if (network != null) {
      try {
        network.killProcesses();
      } catch (IOException e) {
        failure = e;
      }
    }
    daemons.forEach(NodeProcess::close);
    for (Neighbours load : neighbours) {
      try {
        load.close();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    for (EmulatedDisk disk : disks) {
      try {
        disk.close();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    String logs = System.getProperty("sponge.cluster.logs");
    if (logs != null && !logs.isEmpty()) {
      copyLogs(Path.of(logs));
    }
    for (Path pool : mounted) {
      HostCommand.Outcome outcome = HostCommand.attempt("umount", pool.toString());
      if (!outcome.ok() && failure == null) {
        failure = new IOException("umount " + pool + ": " + outcome.output.trim());
      }
    }
    if (failure == null) {
      StaleResources.deleteTree(dir);
    }
    if (network != null) {
      try {
        network.close();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void copyLogs(Path into) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path file : (Iterable<Path>) walk::iterator) {
        String relative = dir.relativize(file).toString();
        if (Files.isRegularFile(file) && relative.contains("logs")) {
          Path copy = into.resolve(relative);
          Files.createDirectories(copy.getParent());
          Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      System.err.println("spongebench: copying the cluster's logs to " + into + ": " + e);
    }
  }
}
