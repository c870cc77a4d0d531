package org.spongefiles.it.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.mapreduce.MRConfig;
import org.spongefiles.emulator.HostCommand;
import org.spongefiles.emulator.cluster.ClusterNetwork;
import org.spongefiles.emulator.cluster.HadoopCluster;
import org.spongefiles.it.Distribution;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * The SpongeFiles paper's two Pig queries ({@link PigQuery#ANCHORTEXT}, {@link PigQuery#QUANTILES})
 * submitted from the cluster's master to its YARN, as a user of the cluster would: the pages in
 * HDFS, the client's configuration the master's ({@code HADOOP_CONF_DIR}, and for Tez a {@code
 * tez-site.xml} naming Tez's jars in HDFS), stock Pig and the distribution's {@code
 * conf/sponge-pig.properties} edited as docs/pig-databag.md says (its directory and heap; on Tez
 * the lines with the agent). Each output is fetched from HDFS and compared with the other variant's
 * byte for byte and with {@link PigReference}'s; a watcher counts {@code pigbag*} files (Pig's bag
 * spills to {@code java.io.tmpdir}) anywhere under the cluster's directory, where every container's
 * working directory is. The recipe's bags must spill into the pools, and those must be the nodes'
 * own (each node's {@code sponge.pool.dir}, final in its mapred-site.xml, which Tez tasks take from
 * their node's {@code HADOOP_CONF_DIR} too): nothing may appear in the machine's {@code /dev/shm}
 * ({@link MachineShm}), where a task without its node's pool would open the default.
 */
final class ClusterPig {
  /** The task JVMs' heap, the same for both variants (the shipped file's -Xmx1024m, edited). */
  static final String TASK_HEAP = "-Xmx256m";

  /** The share of the heap past which a group's bag spills itself, for both variants. */
  static final String BAG_SHARE = "0.002";

  private static final String TEZ_DIR = "/apps/tez";
  private static final String PAGES = "/pig/pages";

  private ClusterPig() {}

  static String run(
      HadoopCluster cluster,
      boolean tez,
      String disk,
      String load,
      long pages,
      int rounds,
      Path work,
      ClusterSeries series,
      ClusterTimes record)
      throws IOException, InterruptedException {
    String workload = tez ? "pig-tez" : "pig-mr";
    Path local = work.resolve("pig-pages");
    if (!Files.isDirectory(local)) {
      new WebCrawlGenerator(20141).write(local, pages, 4);
      fs(cluster, "-mkdir", "-p", "/pig");
      fs(cluster, "-put", local.toString(), PAGES);
    }
    PigQuery[] queries = {PigQuery.ANCHORTEXT, PigQuery.QUANTILES};
    Map<PigQuery, List<String>> reference = new LinkedHashMap<>();
    for (PigQuery query : queries) {
      reference.put(query, PigReference.answer(query, local));
    }
    String conf = cluster.environment(cluster.master()).get("HADOOP_CONF_DIR");
    if (tez) {
      conf += ":" + tezConf(cluster, work);
    }
    ClusterWorkloads.Times times = new ClusterWorkloads.Times(workload, record);
    Map<PigQuery, ClusterWorkloads.Times> perQuery = new LinkedHashMap<>();
    List<QueryRun> last = List.of();
    long stockBagFiles = 0;
    long stockBagBytes = 0;
    long oursBagFiles = 0;
    List<Path> oursBagPaths = new ArrayList<>();
    Set<String> shmBefore = MachineShm.entries();
    for (int round = 0; round < rounds; round++) {
      Map<String, String> outputs = new LinkedHashMap<>();
      for (String mode : List.of(MedianClient.STOCK, MedianClient.OURS)) {
        series.phase(workload + " " + mode + " " + (round + 1));
        PigJvm pig =
            new PigJvm(local, work.resolve(workload + "-" + mode + "-" + round))
                .mode(tez ? "tez" : "mapreduce")
                .clientConf(conf)
                .inputUri(
                    "hdfs://" + ClusterNetwork.MASTER + ":" + HadoopCluster.NAMENODE_PORT + PAGES)
                .launcher(command -> cluster.master().run(command))
                .heap("384m")
                .queries(queries)
                .set("mapreduce.map.memory.mb", "384")
                .set("mapreduce.reduce.memory.mb", "384")
                .set("yarn.app.mapreduce.am.resource.mb", "512")
                .set("tez.am.resource.memory.mb", "512")
                // Pig's JobControl looks at its MapReduce jobs every 100 ms, not 5 s, so that the
                // queries' times are not rounded up to its next look (both variants alike).
                .set("pig.jobcontrol.sleep", "100")
                // Pig's and our bags' share at 0.2% of the heap, as PigTezTest's, so that the
                // groups' bags spill at a smoke size.
                .set("pig.cachedbag.memusage", BAG_SHARE)
                .set("sponge.pig.bag.memory", BAG_SHARE);
        if (tez) {
          pig.classpath(tezClasspath());
        }
        if (mode.equals(MedianClient.OURS)) {
          pig.recipe();
          shippedRecipe(tez).forEach(pig::set);
        } else {
          // Stock Pig on stock Hadoop: the cluster's mapred-site.xml names our merger.
          pig.set("mapreduce.map.java.opts", TASK_HEAP)
              .set("mapreduce.reduce.java.opts", TASK_HEAP)
              .set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, MedianClient.HADOOP_SHUFFLE);
        }
        List<QueryRun> runs;
        try (BagFileWatch watch = BagFileWatch.start(cluster.dir)) {
          runs = pig.run();
          watch.stop();
          if (mode.equals(MedianClient.STOCK)) {
            stockBagFiles += watch.files();
            stockBagBytes = Math.max(stockBagBytes, watch.maxBytes());
          } else {
            oursBagFiles += watch.files();
            oursBagPaths.addAll(watch.paths());
          }
        }
        long millis = 0;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < queries.length; i++) {
          QueryRun run = runs.get(i);
          Path fetched =
              work.resolve(workload + "-out-" + mode + "-" + round + "-" + queries[i].label());
          fs(cluster, "-get", run.output().toString(), fetched.toString());
          String raw = parts(fetched);
          all.append(raw);
          List<String> sorted = PigReference.sortedLines(fetched);
          ClusterWorkloads.same(
              workload + " " + queries[i].label(),
              mode,
              String.join("\n", sorted),
              String.join("\n", reference.get(queries[i])));
          millis += run.millis();
          perQuery
              .computeIfAbsent(queries[i], q -> new ClusterWorkloads.Times())
              .add(mode, run.millis());
          System.out.println(workload + " " + mode + " " + run);
        }
        outputs.put(mode, all.toString());
        times.add(mode, millis);
        if (mode.equals(MedianClient.OURS)) {
          last = runs;
        }
      }
      ClusterWorkloads.same(
          workload,
          "ours (against stock's bytes)",
          outputs.get(MedianClient.OURS),
          outputs.get(MedianClient.STOCK));
    }
    MachineShm.assertNoneAdded(shmBefore, workload);
    if (oursBagFiles > 0) {
      throw new AssertionError(
          workload
              + ": the recipe's tasks wrote "
              + oursBagFiles
              + " pigbag* files to java.io.tmpdir: "
              + oursBagPaths);
    }
    long spills = last.stream().mapToLong(run -> run.counter("BAG_SPILLS")).sum();
    if (spills == 0) {
      throw new AssertionError(
          workload + ": no SpongeFiles BAG_SPILLS in the recipe's jobs' counters: " + last);
    }
    if (last.stream().mapToLong(run -> run.counter("POOL_BYTES_WRITTEN")).sum() == 0) {
      throw new AssertionError(
          workload + ": the recipe's bags wrote nothing into the nodes' pools: " + last);
    }
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "BENCH cluster-%s-%s-%s %s pages=%d rounds=%d",
                workload,
                disk,
                load,
                times,
                pages,
                rounds));
    perQuery.forEach(
        (query, t) -> line.append(' ').append(query.label()).append('_').append(t.ratioField()));
    line.append(
        String.format(
            Locale.ROOT,
            " stock_pigbag_files=%d stock_pigbag_max_bytes=%d ours_pigbag_files=%d",
            stockBagFiles,
            stockBagBytes,
            oursBagFiles));
    for (String counter :
        List.of(
            "BAG_SPILLS",
            "POOL_BYTES_WRITTEN",
            "REMOTE_BYTES_WRITTEN",
            "DISK_BYTES_WRITTEN",
            "DFS_BYTES_WRITTEN",
            "REMOTE_UNAVAILABLE")) {
      long sum = last.stream().mapToLong(run -> run.counter(counter)).sum();
      line.append(' ').append(counter.toLowerCase(Locale.ROOT)).append('=').append(sum);
    }
    return line.toString();
  }

  /**
   * The distribution's {@code conf/sponge-pig.properties} as a user edits it: {@code
   * /opt/spongefiles} replaced by where the distribution is unpacked, the task heap by {@link
   * #TASK_HEAP}, and on Tez the two commented lines with the agent in place of the two without.
   */
  static Map<String, String> shippedRecipe(boolean tez) throws IOException, InterruptedException {
    Path home = Distribution.home();
    List<String> edited = new ArrayList<>();
    for (String line : Files.readAllLines(home.resolve("conf/sponge-pig.properties"))) {
      boolean agentLine = line.startsWith("#mapreduce.") && line.contains("-javaagent:");
      boolean plainLine = line.startsWith("mapreduce.") && line.contains("java.opts=");
      if (tez && agentLine) {
        line = line.substring(1);
      } else if (tez && plainLine) {
        continue;
      }
      edited.add(line.replace("/opt/spongefiles", home.toString()).replace("-Xmx1024m", TASK_HEAP));
    }
    Properties properties = new Properties();
    properties.load(new java.io.StringReader(String.join("\n", edited)));
    Map<String, String> recipe = new LinkedHashMap<>();
    properties.stringPropertyNames().stream()
        .sorted()
        .forEach(key -> recipe.put(key, properties.getProperty(key)));
    if (!recipe.get("mapreduce.reduce.java.opts").contains(TASK_HEAP)
        || tez != recipe.get("mapreduce.reduce.java.opts").contains("-javaagent:")) {
      throw new IllegalStateException(
          "conf/sponge-pig.properties changed: mapreduce.reduce.java.opts is now "
              + recipe.get("mapreduce.reduce.java.opts"));
    }
    return recipe;
  }

  /**
   * Tez on YARN as docs/pig-databag.md says: Tez's jars copied into HDFS ({@value #TEZ_DIR}) and a
   * {@code tez-site.xml} naming them ({@code tez.lib.uris}) with the cluster's Hadoop jars ({@code
   * tez.use.cluster.hadoop-libs}); returns the directory holding it, for the client's classpath.
   */
  private static Path tezConf(HadoopCluster cluster, Path work) throws IOException {
    List<String> put = new ArrayList<>(List.of("-put", "-f"));
    for (String jar : tezClasspath().split(java.io.File.pathSeparator)) {
      put.add(jar);
    }
    fs(cluster, "-mkdir", "-p", TEZ_DIR);
    put.add(TEZ_DIR);
    fs(cluster, put.toArray(new String[0]));
    Path dir = Files.createDirectories(work.resolve("tez-conf"));
    StringBuilder opens = new StringBuilder();
    for (String pkg :
        List.of("java.lang", "java.util", "java.util.concurrent", "java.io", "java.net")) {
      opens.append(" --add-opens=java.base/").append(pkg).append("=ALL-UNNAMED");
    }
    Files.writeString(
        dir.resolve("tez-site.xml"),
        "<?xml version=\"1.0\"?>\n<configuration>\n"
            + property(
                "tez.lib.uris",
                "hdfs://" + ClusterNetwork.MASTER + ":" + HadoopCluster.NAMENODE_PORT + TEZ_DIR)
            + property("tez.use.cluster.hadoop-libs", "true")
            + property("tez.am.resource.memory.mb", "512")
            + property("tez.am.launch.cmd-opts", "-Xmx384m" + opens)
            + "</configuration>\n",
        StandardCharsets.UTF_8);
    return dir;
  }

  private static String property(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  /** Tez's jars, which this module's tests leave off their own classpath (see its pom). */
  static String tezClasspath() throws IOException {
    return Files.readString(Path.of(System.getProperty("sponge.tez.classpath.file"))).trim();
  }

  /** {@code hadoop fs <args>} on the master, as its user would type it. */
  private static void fs(HadoopCluster cluster, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-Xmx128m", "-cp", cluster.classpath(cluster.master())));
    command.add("org.apache.hadoop.fs.FsShell");
    command.addAll(List.of(args));
    HostCommand.run(cluster.master().run(command), cluster.environment(cluster.master()));
  }

  /** The part files under {@code dir}, concatenated in name order. */
  private static String parts(Path dir) throws IOException {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path part :
          files
              .filter(p -> p.getFileName().toString().startsWith("part-"))
              .sorted()
              .collect(Collectors.toList())) {
        try (InputStream in = Files.newInputStream(part)) {
          text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    }
    return text.toString();
  }
}
