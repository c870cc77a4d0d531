package org.spongefiles.it.pig;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.spongefiles.it.Distribution;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.pig.PigAttempt;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * Pig on Tez ({@code tez_local}, Tez 0.10.3 in a child JVM with a 256 MB heap), stock and with the
 * recipe plus the distribution's sponge-pig-tez-agent: a GROUP with nested ORDER and DISTINCTs and
 * a COGROUP, a hash and a skewed JOIN. Pig's internal bags and ours get the same small share of the
 * heap (0.2%), so the groups' bags spill in both. Outputs equal stock Pig's; stock Pig writes its
 * bag spill files ({@code pigbag*}) under java.io.tmpdir, the recipe none (Java Flight Recorder),
 * its spills counted in the pool and, past the pool (1 MiB, 512 KiB for the joins), on disk; the
 * joins' pool is the one a node's mapred-site.xml names final (HADOOP_CONF_DIR), not the script's.
 * And a Pig whose POShuffleTezLoad is another build than the agent's: the DAG fails at the task's
 * start naming the jar and both hashes.
 */
class PigTezTest {
  /** Stock Pig's least heap in the Tez heap sweep (docs/results/pig-tez-sweep.txt). */
  private static final int SWEEP_HEAP_MB = 98;

  private static final String SHUFFLE_LOAD =
      "org/apache/pig/backend/hadoop/executionengine/tez/plan/operator/POShuffleTezLoad.class";

  private static Path root;
  private static Path pages;

  @BeforeAll
  static void generate() throws IOException {
    root = Files.createTempDirectory("pig-tez-");
    pages = root.resolve("pages");
    new WebCrawlGenerator(20151).write(pages, 20_000, 2);
  }

  @AfterAll
  static void cleanUp() {
    TestDirs.deleteTree(root);
  }

  private static PigJvm child(String name, PigQuery... queries) {
    return new PigJvm(pages, root.resolve(name))
        .mode("tez_local")
        .classpath(tezClasspath())
        .heap("256m")
        .queries(queries)
        .set("tez.runtime.io.sort.mb", "16")
        .set("pig.cachedbag.memusage", "0.002")
        .measureTmpWrites();
  }

  /** Tez's jars, which this module's tests leave off their own classpath (see its pom). */
  private static String tezClasspath() {
    try {
      return Files.readString(Path.of(System.getProperty("sponge.tez.classpath.file"))).trim();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static PigJvm recipe(String name, Path poolDir, String poolSize, PigQuery... queries) {
    return child(name, queries)
        .recipe()
        .set("sponge.pool.dir", poolDir.toString())
        .set("sponge.pool.name", "pig-tez")
        .set("sponge.pool.size", poolSize)
        .set("sponge.pool.permissions", "rw-------")
        .set("sponge.chunk.size", "256k")
        .set("sponge.checksum.block.size", "16k")
        .set("sponge.disk.reserve", "0")
        .set("sponge.pig.bag.memory", "0.002");
  }

  /** The agent as the distribution ships it in lib/. */
  private static Path agentJar() throws Exception {
    try (Stream<Path> lib = Files.list(Distribution.home().resolve("lib"))) {
      List<Path> agents =
          lib.filter(p -> p.getFileName().toString().startsWith("sponge-pig-tez-agent-"))
              .collect(Collectors.toList());
      assertThat(agents).as("the agent in the distribution's lib/").hasSize(1);
      return agents.get(0);
    }
  }

  /**
   * A GROUP with nested ORDER and DISTINCTs and a COGROUP; and the COGROUP again with the recipe
   * but without the agent, whose group bags stock Pig's POShuffleTezLoad builds itself and spills
   * to java.io.tmpdir: the agent is what reaches them.
   */
  @Test
  void groupAndCogroupBagsSpillToSpongeFilesNotToTmp() throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-tez");
    try {
      compare("group", poolDir, "1m", UnaryOperator.identity(), PigQuery.MEDIAN, PigQuery.COGROUP);
      QueryRun withoutAgent = recipe("no-agent", poolDir, "1m", PigQuery.COGROUP).run().get(0);
      System.out.println("tez recipe without the agent " + withoutAgent);
      assertThat(withoutAgent.tmpBagBytes())
          .as("the recipe without the agent: POShuffleTezLoad's own bags, %s", withoutAgent)
          .isPositive();
    } finally {
      TestDirs.deleteTree(poolDir);
    }
  }

  /**
   * A hash JOIN and a skewed JOIN, whose bags POShuffleTezLoad builds as a COGROUP's, on a "node"
   * whose mapred-site.xml (in the child's HADOOP_CONF_DIR, as a NodeManager hands it to its
   * containers) names the pool directory final while the script's properties name another: the Tez
   * tasks, whose configuration is the DAG's, use the node's pool, as MapReduce tasks do, and leave
   * nothing in the script's directory.
   */
  @Test
  void joinBagsSpillToSpongeFilesNotToTmp() throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-tez-join");
    Path scriptPool = TestDirs.newShmDir("pig-tez-join-script");
    try {
      Path nodeConf = Files.createDirectories(root.resolve("join-node-conf"));
      Path mapredSite = nodeConf.resolve("mapred-site.xml");
      Files.writeString(
          mapredSite,
          "<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>sponge.pool.dir</name><value>"
              + poolDir
              + "</value><final>true</final></property>\n</configuration>\n");
      compare(
          "join",
          scriptPool,
          "512k",
          child -> child.environment("HADOOP_CONF_DIR", nodeConf.toString()),
          PigQuery.JOIN,
          PigQuery.JOIN_SKEWED);
      assertThat(poolDir.resolve("pig-tez.meta")).as("the node's pool").exists();
      try (Stream<Path> left = Files.list(scriptPool)) {
        assertThat(left).as("the pool directory the script names").isEmpty();
      }
      assertThat(Files.readString(root.resolve("join-sponge").resolve("child.log")))
          .as("the child's log")
          .contains("sponge.pool.dir from " + mapredSite + " (final there) win over");
    } finally {
      TestDirs.deleteTree(poolDir);
      TestDirs.deleteTree(scriptPool);
    }
  }

  /**
   * A Pig whose POShuffleTezLoad is not the build the agent patches: a copy of Pig's jar, ahead of
   * it on the classpath, holding that class file with another minor version (the same code, other
   * bytes, as another compiler may write it). The agent refuses the class, so the DAG fails when
   * the task starts, before any bag fills, with the message naming the jar and both hashes; the
   * query does not finish on stock bags.
   */
  @Test
  void anotherBuildOfShuffleLoadFailsTheDagNamingTheJarAndBothHashes() throws Exception {
    Path rebuilt = root.resolve("rebuilt-pig").resolve("pig-0.18.0-rebuilt.jar");
    String[] hashes = copyWithOtherShuffleLoad(pigJar(), rebuilt);
    Path poolDir = TestDirs.newShmDir("pig-tez-refused");
    try {
      PigJvm child =
          recipe("refused", poolDir, "1m", PigQuery.COGROUP)
              .classpathFirst(rebuilt.toString())
              .jvmOptions("-javaagent:" + agentJar());
      PigAttempt attempt = child.attempt();
      String log = Files.readString(root.resolve("refused").resolve("child.log"));
      assertThat(attempt.finished()).as("a refused Pig: %s", attempt.failure()).isFalse();
      assertThat(attempt.runs()).as("queries finished with a refused Pig").isEmpty();
      assertThat(log)
          .as("the child's log")
          .contains(
              "sponge-pig-tez-agent: org.apache.pig.backend.hadoop.executionengine.tez.plan"
                  + ".operator.POShuffleTezLoad from "
                  + rebuilt.toUri().toURL()
                  + " has SHA-256 "
                  + hashes[1]
                  + ", not the class of Pig 0.18.0")
          .contains("(SHA-256 " + hashes[0] + ") that this agent patches");
    } finally {
      TestDirs.deleteTree(poolDir);
    }
  }

  /**
   * The Tez heap sweep's one case in the default build (the sweep: sponge-bench's PigTezHeapSweep,
   * docs/benchmarks.md). At {@value #SWEEP_HEAP_MB} MB, one of the sweep's heaps (192 MB times 0.8
   * three times) and stock Pig's least on the sweep's larger data, not tuned to this data, stock
   * Pig and the recipe as shipped with the agent (default bag shares, {@code
   * -XX:+ExitOnOutOfMemoryError}) run the skewed JOIN, the query that runs out of heap first in the
   * sweep, side by side. Stock finishes; the recipe must too (once more if it did not, as the sweep
   * allows), with the same output.
   */
  @Test
  void atTheSweepsEdgeHeapTheRecipeFinishesWhereStockDoes() throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-tez-edge");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<PigAttempt> stockRun = pool.submit(() -> edgeChild("edge-stock", null).attempt());
      Future<PigAttempt> recipeRun = pool.submit(() -> edgeChild("edge-sponge", poolDir).attempt());
      PigAttempt stock = stockRun.get();
      PigAttempt sponge = recipeRun.get();
      assertThat(stock.finished())
          .as("stock Pig at %d MB: %s", SWEEP_HEAP_MB, stock.failure())
          .isTrue();
      if (!sponge.finished()) {
        System.out.println("tez edge: the recipe once more, after " + sponge.reason());
        sponge = edgeChild("edge-sponge-again", poolDir).attempt();
      }
      assertThat(sponge.finished())
          .as("the recipe at %d MB, where stock Pig finished: %s", SWEEP_HEAP_MB, sponge.failure())
          .isTrue();
      System.out.println("tez edge stock " + stock.runs().get(0));
      System.out.println("tez edge sponge " + sponge.runs().get(0));
      assertThat(PigReference.sortedLines(sponge.runs().get(0).output()))
          .as("the recipe's skewed JOIN at %d MB against stock Pig's", SWEEP_HEAP_MB)
          .isNotEmpty()
          .isEqualTo(PigReference.sortedLines(stock.runs().get(0).output()));
      assertThat(sponge.runs().get(0).counter("BAG_SPILL_FAILURES")).isZero();
    } finally {
      pool.shutdownNow();
      TestDirs.deleteTree(poolDir);
    }
  }

  /**
   * Stock Pig ({@code poolDir} null) or the recipe as shipped with the agent, at the sweep's heap.
   */
  private static PigJvm edgeChild(String name, Path poolDir) throws Exception {
    PigJvm child =
        new PigJvm(pages, root.resolve(name))
            .mode("tez_local")
            .classpath(tezClasspath())
            .heap(SWEEP_HEAP_MB + "m")
            .jvmOptions("-XX:+ExitOnOutOfMemoryError")
            .queries(PigQuery.JOIN_SKEWED)
            .set("tez.runtime.io.sort.mb", "16");
    if (poolDir == null) {
      return child;
    }
    return child
        .recipe()
        .jvmOptions("-javaagent:" + agentJar())
        .set("sponge.pool.dir", poolDir.toString())
        .set("sponge.pool.name", name)
        .set("sponge.pool.size", "32m")
        .set("sponge.pool.permissions", "rw-------");
  }

  /** The Pig jar on this JVM's classpath, which the children also get. */
  private static Path pigJar() throws Exception {
    URL resource = ClassLoader.getSystemResource(SHUFFLE_LOAD);
    assertThat(resource).as(SHUFFLE_LOAD + " on the classpath").isNotNull();
    String jar = resource.toString();
    return Path.of(new java.net.URI(jar.substring("jar:".length(), jar.indexOf("!/"))));
  }

  /**
   * Copies {@code pig} to {@code copy} with POShuffleTezLoad's minor version raised by one, which
   * the JVM accepts below class file version 56 (Pig 0.18.0's is 52); returns the SHA-256 of the
   * original class file and of the changed one.
   */
  private static String[] copyWithOtherShuffleLoad(Path pig, Path copy) throws Exception {
    Files.createDirectories(copy.getParent());
    String[] hashes = null;
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(pig));
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(copy))) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        byte[] bytes = in.readAllBytes();
        if (entry.getName().equals(SHUFFLE_LOAD)) {
          int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
          assertThat(major).as("%s's class file version in %s", SHUFFLE_LOAD, pig).isLessThan(56);
          String original = sha256(bytes);
          bytes[5]++;
          hashes = new String[] {original, sha256(bytes)};
        }
        out.putNextEntry(new ZipEntry(entry.getName()));
        out.write(bytes);
        out.closeEntry();
      }
    }
    assertThat(hashes).as("%s in %s", SHUFFLE_LOAD, pig).isNotNull();
    return hashes;
  }

  private static String sha256(byte[] bytes) throws Exception {
    StringBuilder hex = new StringBuilder();
    for (byte b : MessageDigest.getInstance("SHA-256").digest(bytes)) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }

  /**
   * Runs the queries stock and with the recipe and the agent ({@code node} applied to its child),
   * and checks outputs and spills.
   */
  private static void compare(
      String name, Path poolDir, String poolSize, UnaryOperator<PigJvm> node, PigQuery... queries)
      throws Exception {
    PigJvm withAgent =
        node.apply(
            recipe(name + "-sponge", poolDir, poolSize, queries)
                .jvmOptions("-javaagent:" + agentJar()));
    List<List<QueryRun>> both = SideBySide.run(child(name + "-stock", queries), withAgent);
    List<QueryRun> stock = both.get(0);
    List<QueryRun> sponge = both.get(1);
    stock.forEach(run -> System.out.println("tez stock " + run));
    sponge.forEach(run -> System.out.println("tez sponge " + run));

    assertThat(sponge).hasSize(queries.length);
    long diskBytes = 0;
    for (int q = 0; q < queries.length; q++) {
      QueryRun ours = sponge.get(q);
      assertThat(PigReference.sortedLines(ours.output()))
          .as("the recipe's %s on Tez against stock Pig's", ours.name())
          .isNotEmpty()
          .isEqualTo(PigReference.sortedLines(stock.get(q).output()));
      assertThat(stock.get(q).tmpBagBytes())
          .as("stock Pig's bag spill files on Tez, %s", stock.get(q))
          .isPositive();
      assertThat(ours.tmpBagBytes()).as("bag spill bytes to java.io.tmpdir, %s", ours).isZero();
      assertThat(ours.tmpBagFiles()).isZero();
      assertThat(ours.counter("BAG_SELF_SPILLS")).as("self spills, %s", ours).isPositive();
      assertThat(ours.counter("BAG_SPILL_FAILURES")).isZero();
      assertThat(ours.counter("POOL_BYTES_WRITTEN")).as("pool bytes, %s", ours).isPositive();
      diskBytes += ours.counter("DISK_BYTES_WRITTEN");
    }
    assertThat(diskBytes).as("runs past the %s pool go to disk", poolSize).isPositive();
  }
}
