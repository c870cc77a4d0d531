package org.spongefiles.bench.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.emulator.MemoryContainer;
import org.spongefiles.emulator.Neighbours;
import org.spongefiles.emulator.StaleResources;
import org.spongefiles.emulator.Teardown;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.pig.PigAttempt;
import org.spongefiles.workloads.pig.PigFiles;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * The SpongeFiles paper's two Pig queries (Frequent Anchortext, Spam Quantiles) on the node sweep's
 * cells: per cell and query, stock Pig and Pig following the recipe (bags spilling to SpongeFiles)
 * {@code bench.node.runs} times, alternating which goes first, each in a child JVM ({@link PigJvm})
 * placed on the node as {@link NodePlacement} places the median job: its work directory (Hadoop's
 * local directories, Pig's temp dir, java.io.tmpdir where stock Pig's bags spill, our disk tier) on
 * the cell's disk, the JVM in a fresh {@link MemoryContainer} of the cell's limit, and the recipe's
 * pool (fresh for every run) prefaulted from outside the container; the cell's {@link Neighbours}
 * run meanwhile. The first pair of every cell where both finish must give the same sorted output
 * lines, and every child that finishes must report its container's memory cgroup, or the sweep
 * stops. A run where a child does not finish is reported with its cell (which variant, why, its
 * log's tail) and left out of the ratios, and the sweep goes on: stock Pig's own bags can fail (its
 * SortedDataBag, spilled by the memory manager while a UDF reads it, throws a
 * ConcurrentModificationException), and a recipe failing where stock Pig finished fails the sweep
 * at its end. One {@code BENCH pig-<query>-<disk>-<load>-<memory>} line per cell and query (median
 * ratio recipe / stock of the query time, min-max), a table ({@code pig-sweep.md}) and one PNG per
 * query and disk class ({@code pig-<query>-<disk>.png}) in {@code bench.node.out}.
 *
 * <p>The pages are generated once, outside the emulated disks (as the median job's input), and the
 * query time is Pig's whole job (map, shuffle and reduce in local mode), as {@code PigBench}
 * measures it. Both variants run with {@code mapreduce.reduce.shuffle.input.buffer.percent=0.3} and
 * {@link PigJvm}'s 16 MB io.sort.mb, as in PigBench.
 *
 * <p>Properties: {@code bench.node.pig.pages} (400,000), {@code bench.node.pig.heap} (96m: the
 * child's heap; its container is this heap plus {@code bench.node.direct}, {@code
 * bench.node.overhead} and the page cache of the memory condition), {@code bench.node.pig.pool}
 * (512m). Run alone with {@link #main} ({@code bench.node.parts=pig}).
 */
public final class PigNodeCells {
  private static final PigQuery[] QUERIES = {PigQuery.ANCHORTEXT, PigQuery.QUANTILES};

  private final long pages;
  private final String heap;
  private final String direct = System.getProperty("bench.node.direct", "64m");
  private final String poolSize = System.getProperty("bench.node.pig.pool", "512m");
  private final int runs;
  private final Path out;
  private final Path imageDir;
  private final List<Cell> cells = new ArrayList<>();
  private Path input;
  private long inputBytes;
  private int runCount;
  private boolean recipeFailedWhereStockFinished;

  /** One query in one node cell, with what the last run of each variant spilled where. */
  private static final class Cell {
    final PigQuery query;
    final NodeCell node;
    QueryRun stock;
    QueryRun recipe;
    int stockFailures;
    int recipeFailures;
    boolean answerChecked;

    Cell(PigQuery query, NodeCell node) {
      this.query = query;
      this.node = node;
    }

    String name() {
      return "pig-" + query.label() + "-" + node.name();
    }
  }

  PigNodeCells(int runs, Path out, Path imageDir) {
    this(
        runs,
        out,
        imageDir,
        Long.getLong("bench.node.pig.pages", 400_000),
        System.getProperty("bench.node.pig.heap", "96m"));
  }

  PigNodeCells(int runs, Path out, Path imageDir, long pages, String heap) {
    this.runs = runs;
    this.out = out;
    this.imageDir = imageDir;
    this.pages = pages;
    this.heap = heap;
  }

  /**
   * The Pig cells alone: {@link NodeSweep} with {@code bench.node.parts=pig} and no remote-tier
   * rows, unless those properties are set.
   */
  public static void main(String[] args) throws Exception {
    if (System.getProperty("bench.node.parts") == null) {
      System.setProperty("bench.node.parts", "pig");
    }
    if (System.getProperty("bench.remote.links") == null) {
      System.setProperty("bench.remote.links", "");
    }
    NodeSweep.main(args);
  }

  /** The child JVM's heap, which its container's limit covers. */
  long heapBytes() {
    return ByteSize.parse(heap);
  }

  /** Both queries in one cell: {@code root} on the cell's disk, {@code neighbours} running. */
  void measure(
      String disk,
      String load,
      String memory,
      Path root,
      boolean containers,
      Neighbours neighbours,
      long limit)
      throws Exception {
    generate();
    List<Cell> ofCell = new ArrayList<>();
    for (PigQuery query : QUERIES) {
      ofCell.add(new Cell(query, new NodeCell(disk, load, memory)));
    }
    for (int run = 1; run <= runs; run++) {
      for (Cell cell : ofCell) {
        // Alternate which variant goes first, so neither always follows the other's leftovers.
        boolean recipeFirst = run % 2 == 0;
        PigAttempt[] pair = new PigAttempt[2];
        long[] peak = new long[2];
        for (int v = 0; v < 2; v++) {
          boolean recipe = recipeFirst == (v == 0);
          int index = recipe ? 1 : 0;
          MemoryContainer container =
              containers
                  ? MemoryContainer.create(
                      cell.name() + "-" + run + (recipe ? "-recipe" : "-stock"), limit)
                  : null;
          try (NodePlacement placement = NodePlacement.allOnDisk(root.resolve("pig"), container)) {
            pair[index] = attempt(cell.query, recipe, placement);
            peak[index] = placement.maxUsage();
            if (container != null
                && pair[index].finished()
                && !pair[index]
                    .runs()
                    .get(0)
                    .memoryCgroup()
                    .equals("/" + container.group.getFileName())) {
              throw new IllegalStateException(
                  cell.name()
                      + ": the Pig child ran in memory cgroup '"
                      + pair[index].runs().get(0).memoryCgroup()
                      + "', not in its container "
                      + container.group);
            }
          }
        }
        if (!pair[0].finished() || !pair[1].finished()) {
          failed(cell, run, pair);
          continue;
        }
        QueryRun stock = pair[0].runs().get(0);
        QueryRun recipe = pair[1].runs().get(0);
        try {
          if (!cell.answerChecked) {
            checkSameAnswer(cell.query, stock, recipe);
            cell.answerChecked = true;
          }
        } finally {
          PigFiles.deleteTree(stock.output().getParent());
          PigFiles.deleteTree(recipe.output().getParent());
        }
        cell.node.add(stock.millis() / 1e3, recipe.millis() / 1e3);
        cell.stock = stock;
        cell.recipe = recipe;
        BenchReport.info(
            "%s run %d (container limit %s, java.io.tmpdir on %s%s): stock %.1f s, recipe %.1f"
                + " s; container peak stock %s, recipe %s; %s",
            cell.name(),
            run,
            containers ? ByteSize.format(limit) : "none",
            stock.tmpStore(),
            neighbours != null
                ? ", " + neighbours.describe() + ", " + neighbours.alive() + " alive"
                : "",
            stock.millis() / 1e3,
            recipe.millis() / 1e3,
            ByteSize.format(peak[0]),
            ByteSize.format(peak[1]),
            spills(stock, recipe));
      }
    }
    for (Cell cell : ofCell) {
      if (cell.node.measured()) {
        BenchReport.bench(cell.name(), NodeCell.median(cell.node.ratios), details(cell));
      } else {
        BenchReport.info("FAILED: %s, all %d runs (%s)", cell.name(), runs, failureCounts(cell));
      }
    }
    cells.addAll(ofCell);
  }

  /**
   * A run where stock Pig, the recipe or both did not finish: reported with its cell (why, and the
   * child's log tail), which goes on with its next run. A recipe that fails where stock Pig
   * finished fails the sweep at its end ({@link #recipeFailedWhereStockFinished()}).
   */
  private void failed(Cell cell, int run, PigAttempt[] pair) {
    List<String> why = new ArrayList<>();
    String[] variants = {"stock", "recipe"};
    for (int index = 0; index < 2; index++) {
      if (pair[index].finished()) {
        QueryRun finished = pair[index].runs().get(0);
        PigFiles.deleteTree(finished.output().getParent());
        why.add(
            String.format(
                Locale.ROOT, "%s finished in %.1f s", variants[index], finished.millis() / 1e3));
      } else {
        why.add(variants[index] + " " + pair[index].reason());
        BenchReport.info(
            "%s run %d, %s's child: %s", cell.name(), run, variants[index], pair[index].failure());
      }
    }
    if (!pair[0].finished()) {
      cell.stockFailures++;
    }
    if (!pair[1].finished()) {
      cell.recipeFailures++;
      if (pair[0].finished()) {
        recipeFailedWhereStockFinished = true;
      }
    }
    cell.node.failed(run, String.join("; ", why));
    BenchReport.info("%s run %d FAILED: %s", cell.name(), run, String.join("; ", why));
  }

  /** Whether the recipe failed in a run where stock Pig finished: the sweep must fail. */
  boolean recipeFailedWhereStockFinished() {
    return recipeFailedWhereStockFinished;
  }

  private static String failureCounts(Cell cell) {
    return String.format(
        Locale.ROOT,
        "stock failed in %d, the recipe in %d",
        cell.stockFailures,
        cell.recipeFailures);
  }

  /** The input pages, written once outside the emulated disks and removed at exit. */
  private void generate() throws IOException {
    if (input != null) {
      return;
    }
    Path dir = Files.createDirectories(imageDir.resolve(Teardown.prefix() + "pig-input"));
    Teardown.register(() -> StaleResources.deleteTree(dir));
    input = dir.resolve("pages");
    long start = System.nanoTime();
    inputBytes = new WebCrawlGenerator(2014).write(input, pages, 8);
    BenchReport.info(
        "Pig cells: %,d pages, %.1f MB of text in %.1f s; child heap %s, pool %s, queries %s",
        pages,
        inputBytes / 1e6,
        (System.nanoTime() - start) / 1e9,
        heap,
        poolSize,
        List.of(QUERIES));
  }

  /**
   * One variant of {@code query} in a child JVM placed by {@code placement}: its work directory
   * under the placement's, its command wrapped into the placement's container, the recipe's fresh
   * pool prefaulted by the placement.
   */
  PigAttempt attempt(PigQuery query, boolean recipe, NodePlacement placement) throws Exception {
    generate();
    Path work = placement.workRoot(null).resolve("run-" + (++runCount));
    PigJvm child =
        new PigJvm(input, work)
            .heap(heap)
            .jvmOptions("-XX:MaxDirectMemorySize=" + direct)
            .queries(query)
            .set("mapreduce.reduce.shuffle.input.buffer.percent", "0.3")
            .launcher(placement::command);
    Map<String, String> pool = new LinkedHashMap<>();
    Path poolDir = null;
    if (recipe) {
      // A fresh pool for every run: memory an earlier run took must not look free or taken now.
      poolDir = PigFiles.newShmDir("pignode-pool-");
      pool.put("sponge.pool.dir", poolDir.toString());
      pool.put("sponge.pool.name", "pignode");
      pool.put("sponge.pool.size", poolSize);
      pool.put("sponge.pool.permissions", "rw-------");
      child.recipe();
      pool.forEach(child::set);
    }
    try {
      placement.prepare(pool);
      PigAttempt attempt = child.attempt();
      if (!attempt.finished()) {
        PigFiles.deleteTree(work);
      }
      return attempt;
    } finally {
      if (poolDir != null) {
        PigFiles.deleteTree(poolDir);
      }
    }
  }

  /** Stock Pig and Pig with SpongeFiles bags gave the same answer, or the numbers mean nothing. */
  private static void checkSameAnswer(PigQuery query, QueryRun stock, QueryRun recipe)
      throws IOException {
    List<String> expected = PigReference.sortedLines(stock.output());
    if (expected.isEmpty() || !expected.equals(PigReference.sortedLines(recipe.output()))) {
      throw new IllegalStateException(
          query + " on the node: Pig with SpongeFiles bags answered differently from stock Pig");
    }
    BenchReport.info("  %s: same %d output lines from both", query.label(), expected.size());
  }

  /** Where a pair's bags spilled, from their counters. */
  private static String spills(QueryRun stock, QueryRun recipe) {
    return String.format(
        Locale.ROOT,
        "stock: Pig spilled %d bags proactively, memory manager %d, JVM wrote %.1f MB to block"
            + " devices; recipe: %d bag spills, pool %.1f MB, disk %.1f MB, blocked %d ms,"
            + " JVM wrote %.1f MB to block devices",
        stock.counter("PROACTIVE_SPILL_COUNT_BAGS"),
        stock.counter("SPILLABLE_MEMORY_MANAGER_SPILL_COUNT"),
        stock.blockBytesWritten() / 1e6,
        recipe.counter("BAG_SPILLS"),
        recipe.counter("POOL_BYTES_WRITTEN") / 1e6,
        recipe.counter("DISK_BYTES_WRITTEN") / 1e6,
        recipe.counter("BLOCKED_WRITE_MILLIS") + recipe.counter("BLOCKED_READ_MILLIS"),
        recipe.blockBytesWritten() / 1e6);
  }

  private String details(Cell cell) {
    return String.format(
        Locale.ROOT,
        "min=%.3f max=%.3f runs=%d%s query_s stock=%s recipe=%s pages=%d heap=%s"
            + " stock_block_write_mb=%.1f recipe_bag_spills=%d recipe_pool_mb=%.1f"
            + " recipe_disk_mb=%.1f (last run of each)",
        NodeCell.min(cell.node.ratios),
        NodeCell.max(cell.node.ratios),
        cell.node.ratios.size(),
        cell.node.failures.isEmpty()
            ? ""
            : String.format(
                Locale.ROOT,
                " failed_runs=%d stock_failed=%d recipe_failed=%d",
                cell.node.failures.size(),
                cell.stockFailures,
                cell.recipeFailures),
        NodeCell.spread("%.1f [%.1f-%.1f]", cell.node.stock),
        NodeCell.spread("%.1f [%.1f-%.1f]", cell.node.ours),
        pages,
        heap,
        cell.stock.blockBytesWritten() / 1e6,
        cell.recipe.counter("BAG_SPILLS"),
        cell.recipe.counter("POOL_BYTES_WRITTEN") / 1e6,
        cell.recipe.counter("DISK_BYTES_WRITTEN") / 1e6);
  }

  /**
   * Per query (by its label), the cells of {@code disk} under {@code load}; none measured: empty.
   */
  Map<String, List<NodeCell>> byQuery(String disk, String load) {
    Map<String, List<NodeCell>> byQuery = new LinkedHashMap<>();
    for (Cell cell : cells) {
      if (cell.node.disk.equals(disk) && cell.node.load.equals(load)) {
        byQuery.computeIfAbsent(cell.query.label(), label -> new ArrayList<>()).add(cell.node);
      }
    }
    return byQuery;
  }

  /** One PNG per query for the cells of {@code disk} (none for a query none of them measured). */
  void plot(String disk) throws IOException {
    for (PigQuery query : QUERIES) {
      List<NodeCell> ofDisk = new ArrayList<>();
      for (Cell cell : cells) {
        if (cell.query == query && cell.node.disk.equals(disk)) {
          ofDisk.add(cell.node);
        }
      }
      if (ofDisk.stream().noneMatch(NodeCell::measured)) {
        continue; // every run failed: the table and the output say so, a plot would be empty
      }
      Files.createDirectories(out);
      Path file =
          NodePlot.draw(
              "Pig " + query.label() + " on " + disk + " (median of runs; bars as wide as min-max)",
              "query time (s)",
              new String[] {"stock Pig", "Pig + SpongeFiles bags"},
              ofDisk,
              out.resolve("pig-" + query.label() + "-" + disk + ".png"));
      BenchReport.info("plot: %s", file);
    }
  }

  /** Writes {@code pig-sweep.md} in {@code bench.node.out}, with the sweep's {@code notes}. */
  void report(List<String> notes) throws IOException {
    if (cells.isEmpty()) {
      return;
    }
    List<String> lines =
        SweepReport.begin(out, "# Node sweep: the paper's Pig queries on emulated nodes");
    lines.add(
        String.format(
            Locale.ROOT,
            "Generated by `NodeSweep` (`PigNodeCells`, see docs/benchmarks.md). %,d web-crawl"
                + " pages (%.1f MB), Pig local mode, child heap %s, io.sort.mb 16, shuffle input"
                + " buffer 0.3; the recipe's pool %s on tmpfs. Query time in seconds, median of"
                + " %d runs (min-max); ratio = recipe / stock per run. Memory: each run's JVM in a"
                + " memory cgroup of heap %s + direct %s + %s JVM overhead + page cache (abundant"
                + " %s, scarce %s).",
            pages,
            inputBytes / 1e6,
            heap,
            poolSize,
            runs,
            heap,
            direct,
            System.getProperty("bench.node.overhead", "320m"),
            System.getProperty("bench.node.cache.abundant", "2g"),
            System.getProperty("bench.node.cache.scarce", "32m")));
    SweepReport.disksAndNotes(lines, notes);
    lines.add(
        "| query | disk | load | memory | stock s | recipe s | recipe / stock |"
            + " recipe spilled to pool / disk MB (last run) | stock wrote to block devices MB"
            + " (last run) |");
    lines.add("|---|---|---|---|---|---|---|---|---|");
    for (Cell cell : cells) {
      if (!cell.node.measured()) {
        lines.add(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | - | - | all %d runs failed (%s; see the output) | - | - |",
                cell.query.label(),
                cell.node.disk,
                cell.node.load,
                cell.node.memory,
                cell.node.failures.size(),
                failureCounts(cell)));
        continue;
      }
      lines.add(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s%s | %.1f / %.1f | %.1f |",
              cell.query.label(),
              cell.node.disk,
              cell.node.load,
              cell.node.memory,
              NodeCell.spread("%.1f (%.1f-%.1f)", cell.node.stock),
              NodeCell.spread("%.1f (%.1f-%.1f)", cell.node.ours),
              NodeCell.spread("%.2f (%.2f-%.2f)", cell.node.ratios),
              cell.node.failures.isEmpty()
                  ? ""
                  : "; " + cell.node.failures.size() + " runs failed (" + failureCounts(cell) + ")",
              cell.recipe.counter("POOL_BYTES_WRITTEN") / 1e6,
              cell.recipe.counter("DISK_BYTES_WRITTEN") / 1e6,
              cell.stock.blockBytesWritten() / 1e6));
    }
    Path table = out.resolve("pig-sweep.md");
    Files.write(table, lines, StandardCharsets.UTF_8);
    BenchReport.info("table: %s", table);
  }
}
