package org.spongefiles.bench.pig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spongefiles.bench.Contention;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.pig.PigFiles;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * The SpongeFiles paper's Pig experiment on this machine: Frequent Anchortext and Spam Quantiles
 * over skewed web-crawl pages, each run by stock Pig and by Pig following the recipe (bags spilling
 * to SpongeFiles), in child JVMs with the same small heap, alternating, without background load and
 * beside the paper's disk writer plus pinned memory ({@link Contention}). Spilling comes from the
 * small heap alone (Pig's memory manager and its proactive bags at their defaults). Reports the
 * query times (mean over the repetitions), the bytes each variant spilled where, and how much of
 * the recipe's spilling still bypasses SpongeFiles (bytes Pig writes to java.io.tmpdir, measured
 * with Java Flight Recorder in separate runs).
 *
 * <p>Both variants run with {@code mapreduce.reduce.shuffle.input.buffer.percent=0.3}: at 256 MB
 * Hadoop's local shuffle otherwise runs out of heap before Pig sees a tuple, in either variant.
 *
 * <p>Then (or alone, with {@code bench.pig.part=recipe}) the recipe against stock Pig on the least
 * heap and the time at the same heap ({@link PigRecipeMeasure}): {@code BENCH
 * pig-recipe-least-heap} and {@code BENCH pig-recipe-time} ({@code bench.pig.part=recipe-time}: the
 * time alone).
 *
 * <p>Alone, with {@code bench.pig.part=edge}: how often a three-job script (the skewed JOIN)
 * finishes near stock Pig's heap edge, stock against the recipe ({@link PigEdgeFinish}): {@code
 * BENCH pig-edge-finish-skewed_join-<heap>}, with {@code bench.pig.edge.pages} (300,000), {@code
 * bench.pig.edge.heaps} (112,104,96,88 MB) and {@code bench.pig.edge.runs} (6 per variant and
 * heap).
 *
 * <p>Alone, with {@code bench.pig.part=edge-cpu}: what spilling bags cost in wall and CPU time, a
 * COGROUP, a hash JOIN, a skewed JOIN and a GROUP with nested ORDER and DISTINCTs, stock against
 * the recipe ({@link PigEdgeCpu}): {@code BENCH pig-edge-<script>-<heap> ratio=<wall> cpu=<cpu>},
 * with {@code bench.pig.cpu.pages} (300,000), {@code bench.pig.cpu.heaps} (512,160,128 MB), {@code
 * bench.pig.cpu.runs} (6 pairs per script and heap), {@code bench.pig.cpu.warmups} (1: runs of the
 * script in each child before the one measured; 0 measures a cold JVM), {@code
 * bench.pig.cpu.repeats} (1: measured runs in a row in each child, their mean its figure), {@code
 * bench.pig.cpu.scripts} (some of them, e.g. {@code median}) and {@code bench.pig.cpu.jvm} (more
 * options for the children, e.g. a flight recording; {@code {run}} in them stands for the child's
 * script, heap, variant and run number).
 *
 * <p>Properties: {@code bench.pig.pages} (3,000,000), {@code bench.pig.heap} (256m), {@code
 * bench.pig.reps} (2), {@code bench.pig.pool.size} (2g), {@code bench.pig.mode} (local), {@code
 * bench.pig.dir} (a temporary directory), {@code bench.pig.part} ({@code all}, {@code paper},
 * {@code recipe} or {@code recipe-time}), {@code bench.pig.recipe.pages} (1,000,000), {@code
 * bench.pig.recipe.heap.mb} (256: the time's heap and the top of the least-heap search), {@code
 * bench.pig.recipe.sort.mb} (Hadoop's io.sort.mb for both variants there; 0: {@link PigJvm}'s 16).
 */
public final class PigBench {
  private static final PigQuery[] QUERIES = {PigQuery.ANCHORTEXT, PigQuery.QUANTILES};

  private final long pages = Long.getLong("bench.pig.pages", 3_000_000);
  private final String heap = System.getProperty("bench.pig.heap", "256m");
  private final int reps = Integer.getInteger("bench.pig.reps", 2);
  private final String poolSize = System.getProperty("bench.pig.pool.size", "2g");
  private final String mode = System.getProperty("bench.pig.mode", "local");
  private final String part = System.getProperty("bench.pig.part", "all");
  private final long recipePages = Long.getLong("bench.pig.recipe.pages", 1_000_000);
  private final int recipeHeapMb = Integer.getInteger("bench.pig.recipe.heap.mb", 256);
  private final int recipeSortMb = Integer.getInteger("bench.pig.recipe.sort.mb", 0);
  private final long edgePages = Long.getLong("bench.pig.edge.pages", 300_000);
  private final String edgeHeaps = System.getProperty("bench.pig.edge.heaps", "112,104,96,88");
  private final int edgeRuns = Integer.getInteger("bench.pig.edge.runs", 6);
  private final long cpuPages = Long.getLong("bench.pig.cpu.pages", 300_000);
  private final String cpuHeaps = System.getProperty("bench.pig.cpu.heaps", "512,160,128");
  private final int cpuRuns = Integer.getInteger("bench.pig.cpu.runs", 6);
  private final int cpuWarmUps = Integer.getInteger("bench.pig.cpu.warmups", 1);
  private final int cpuRepeats = Integer.getInteger("bench.pig.cpu.repeats", 1);
  private final String cpuJvm = System.getProperty("bench.pig.cpu.jvm", "");
  private final String cpuScripts = System.getProperty("bench.pig.cpu.scripts", "");
  private final Path dir;
  private final Path poolDir;
  private final Path input;
  private int runCount;

  private PigBench() throws IOException {
    String configured = System.getProperty("bench.pig.dir");
    dir =
        configured != null
            ? Files.createDirectories(Path.of(configured))
            : Files.createTempDirectory("pigbench-");
    input = dir.resolve("pages");
    poolDir = PigFiles.newShmDir("pigbench-pool-");
  }

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    PigBench bench = new PigBench();
    try {
      bench.run();
    } finally {
      PigFiles.deleteTree(bench.poolDir);
      PigFiles.deleteTree(bench.dir);
    }
  }

  private void run() throws Exception {
    if (part.equals("edge")) {
      new PigEdgeFinish(dir, poolDir, edgePages, heaps(edgeHeaps), edgeRuns).run();
      return;
    }
    if (part.equals("edge-cpu")) {
      List<String> options = cpuJvm.isBlank() ? List.of() : List.of(cpuJvm.trim().split("\\s+"));
      List<PigQuery> scripts = new ArrayList<>();
      for (String script : cpuScripts.split(",")) {
        if (!script.isBlank()) {
          scripts.add(PigQuery.valueOf(script.trim().toUpperCase(Locale.ROOT)));
        }
      }
      new PigEdgeCpu(
              dir,
              poolDir,
              cpuPages,
              heaps(cpuHeaps),
              cpuRuns,
              cpuWarmUps,
              cpuRepeats,
              scripts.isEmpty() ? PigEdgeCpu.SCRIPTS : scripts,
              options)
          .run();
      return;
    }
    if (!part.startsWith("recipe")) {
      paper();
    }
    if (!part.equals("paper")) {
      PigRecipeMeasure recipe =
          new PigRecipeMeasure(
              dir, poolDir, poolSize, recipePages, recipeHeapMb, reps, recipeSortMb);
      if (part.equals("recipe-time")) {
        recipe.runTimeOnly();
      } else {
        recipe.run();
      }
    }
  }

  private static List<Integer> heaps(String megabytes) {
    List<Integer> heaps = new ArrayList<>();
    for (String heapMb : megabytes.split(",")) {
      heaps.add(Integer.parseInt(heapMb.trim()));
    }
    return heaps;
  }

  /** The paper's experiment: both queries quiet and under contention, and the bypass. */
  private void paper() throws Exception {
    long start = System.nanoTime();
    long bytes = new WebCrawlGenerator(2014).write(input, pages, 8);
    BenchReport.info(
        "%,d pages, %.1f MB of text in %.1f s; child heap %s, %s mode, pool %s in %s",
        pages,
        bytes / 1e6,
        (System.nanoTime() - start) / 1e9,
        heap,
        mode,
        poolSize,
        poolDir.getParent());
    PigTimes quiet = measure(Contention.Level.QUIET);
    PigTimes contended = measure(Contention.Level.DISK_AND_MEMORY);
    List<QueryRun[]> bypass = bypass();
    for (int q = 0; q < QUERIES.length; q++) {
      quiet.report("pig-quiet-" + QUERIES[q].label(), q, "(no target)");
      contended.report(
          "pig-contention-" + QUERIES[q].label(),
          q,
          "(disk writer + pinned memory; target <= 0.6)");
    }
    for (int q = 0; q < QUERIES.length; q++) {
      reportBypass(QUERIES[q], bypass.get(q)[0], bypass.get(q)[1]);
    }
  }

  private PigTimes measure(Contention.Level level) throws Exception {
    PigTimes times = new PigTimes(QUERIES.length, reps);
    try (Contention load = Contention.start(level, dir.resolve("contention"))) {
      for (int rep = 0; rep < reps; rep++) {
        for (int q = 0; q < QUERIES.length; q++) {
          // Alternate which variant goes first, so neither always follows the other's leftovers.
          boolean spongeFirst = rep % 2 == 1;
          QueryRun[] pair = new QueryRun[2];
          for (int v = 0; v < 2; v++) {
            boolean sponge = spongeFirst == (v == 0);
            QueryRun run = runOne(QUERIES[q], sponge, false);
            times.add(q, sponge, run);
            BenchReport.info(
                "  %s %s %s rep %d: %.1f s; %s",
                level,
                QUERIES[q].label(),
                sponge ? "sponge" : "stock",
                rep,
                run.millis() / 1e3,
                spilled(run));
            pair[sponge ? 1 : 0] = run;
          }
          if (rep == 0) {
            checkSameAnswer(QUERIES[q], pair[0], pair[1]);
          }
          deleteRun(pair[0]);
          deleteRun(pair[1]);
        }
      }
      BenchReport.info("%s: %s", level, load.describe());
    }
    return times;
  }

  /** Stock Pig and Pig with SpongeFiles bags gave the same answer, or the numbers mean nothing. */
  private static void checkSameAnswer(PigQuery query, QueryRun stock, QueryRun sponge)
      throws IOException {
    List<String> expected = PigReference.sortedLines(stock.output());
    if (expected.isEmpty() || !expected.equals(PigReference.sortedLines(sponge.output()))) {
      throw new IllegalStateException(
          query + ": Pig with SpongeFiles bags answered differently from stock Pig");
    }
    BenchReport.info("  %s: same %d output lines from both", query.label(), expected.size());
  }

  /** Per query, a stock and a recipe run with the writes to java.io.tmpdir counted. */
  private List<QueryRun[]> bypass() throws Exception {
    List<QueryRun[]> runs = new ArrayList<>();
    for (PigQuery query : QUERIES) {
      QueryRun stock = runOne(query, false, true);
      QueryRun sponge = runOne(query, true, true);
      deleteRun(stock);
      deleteRun(sponge);
      runs.add(new QueryRun[] {stock, sponge});
    }
    return runs;
  }

  private void reportBypass(PigQuery query, QueryRun stock, QueryRun sponge) {
    long sponged = sponge.spongeBytesWritten();
    long bypassing = sponge.tmpBytes();
    double fraction = sponged + bypassing == 0 ? 0 : bypassing / (double) (sponged + bypassing);
    BenchReport.bench(
        "pig-bypass-" + query.label(),
        fraction,
        String.format(
            Locale.ROOT,
            "tmpdir_bytes=%d sponge_bytes=%d tmpdir_files=%d stock_tmpdir_bytes=%d "
                + "stock_tmpdir_files=%d (ratio = share of the recipe's spilled bytes still "
                + "written to java.io.tmpdir)",
            bypassing,
            sponged,
            sponge.tmpFiles(),
            stock.tmpBytes(),
            stock.tmpFiles()));
  }

  private QueryRun runOne(PigQuery query, boolean sponge, boolean countTmp) throws Exception {
    Path work = dir.resolve("run-" + (++runCount));
    PigJvm child =
        new PigJvm(input, work)
            .mode(mode)
            .heap(heap)
            .queries(query)
            .set("mapreduce.reduce.shuffle.input.buffer.percent", "0.3");
    if (sponge) {
      child
          .recipe()
          .set("sponge.pool.dir", poolDir.toString())
          .set("sponge.pool.name", "pigbench")
          .set("sponge.pool.size", poolSize)
          .set("sponge.pool.permissions", "rw-------");
    }
    if (countTmp) {
      child.measureTmpWrites();
    }
    return child.run().get(0);
  }

  /** Where a run's bags spilled, from its counters. */
  private static String spilled(QueryRun run) {
    return String.format(
        Locale.ROOT,
        "bag spills %d (%d by themselves); Pig's counters: proactive %d bags / %d records, "
            + "memory manager %d; SpongeFiles pool %.1f MB, disk %.1f MB, blocked %d ms; "
            + "the JVM wrote %.1f MB to block devices",
        run.counter("BAG_SPILLS"),
        run.counter("BAG_SELF_SPILLS"),
        run.counter("PROACTIVE_SPILL_COUNT_BAGS"),
        run.counter("PROACTIVE_SPILL_COUNT_RECS"),
        run.counter("SPILLABLE_MEMORY_MANAGER_SPILL_COUNT"),
        run.counter("POOL_BYTES_WRITTEN") / 1e6,
        run.counter("DISK_BYTES_WRITTEN") / 1e6,
        run.counter("BLOCKED_WRITE_MILLIS") + run.counter("BLOCKED_READ_MILLIS"),
        run.blockBytesWritten() / 1e6);
  }

  private static void deleteRun(QueryRun run) {
    PigFiles.deleteTree(run.output().getParent());
  }
}
