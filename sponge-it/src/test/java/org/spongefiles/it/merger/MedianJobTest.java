package org.spongefiles.it.merger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.testkit.mapreduce.SpillFileProbe;
import org.spongefiles.workloads.median.MedianRun;
import org.spongefiles.workloads.median.MedianShuffles;

/**
 * The paper's median job over skewed numbers in LocalJobRunner, on shuffle memory far smaller than
 * the reduce input: Hadoop's merger and ours give the same bytes, the median computed directly from
 * the generator, and ours spills every record once, to the pool, leaving no spill file on disk.
 */
class MedianJobTest {
  private static final long NUMBERS = 400_000;

  private Path root;
  private Path pool;
  private Path disk;

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createTempDirectory("median-test");
    pool = TestDirs.newShmDir("median-pool");
    disk = TestDirs.newShmDir("median-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(root);
    TestDirs.deleteTree(pool);
    TestDirs.deleteTree(disk);
  }

  @Test
  void medianOfSkewedNumbersMatchesStockAndTheGenerator() throws Exception {
    NumbersGenerator numbers =
        new NumbersGenerator(NUMBERS, 24, NumbersGenerator.Shape.SKEWED, 20140622);
    Path input = root.resolve("input");
    numbers.write(input);
    long median = numbers.lowerMedian(value -> true);
    Configuration conf = SpongeTestConf.of(pool, disk, 32L << 20, 64L << 10);
    conf.setLong("mapreduce.reduce.memory.totalbytes", 2L << 20);
    conf.setInt("mapreduce.task.io.sort.mb", 8);
    long[] counts = {NUMBERS};

    MedianRun.Result stock =
        MedianRun.run(conf, MedianRun.Merger.STOCK, input, root.resolve("stock"), counts);
    MedianRun.Result ours =
        MedianRun.run(conf, MedianRun.Merger.SPONGE, input, root.resolve("sponge"), counts);

    assertThat(stock.succeeded).isTrue();
    assertThat(ours.succeeded).isTrue();
    assertThat(ours.output)
        .isEqualTo(stock.output)
        .isEqualTo(NumbersGenerator.format(median) + "\t" + NUMBERS + "\n");
    assertThat(stock.spillFiles).isNotEmpty();
    assertThat(ours.spillFiles).isEmpty();
    assertThat(ours.sponge("IN_MEMORY_MERGES")).isPositive();
    assertThat(ours.sponge("POOL_BYTES_WRITTEN")).isPositive();
    assertThat(ours.sponge("DISK_BYTES_WRITTEN")).isZero();
    // Every number went into one SpongeFile and came back once; Hadoop's merger counts more.
    assertThat(ours.reduceSpilledRecords).isEqualTo(NUMBERS);
    assertThat(stock.reduceSpilledRecords).isGreaterThanOrEqualTo(NUMBERS);
    assertThat(ours.reduceNanos).isPositive().isLessThan(ours.jobNanos);
    assertThat(ours.reduceDiskBytes).isLessThan(stock.reduceDiskBytes);
  }

  /**
   * The node sweep's layout: with {@code median.reduce.local.dir} the reducer's spill files go
   * there, in its attempt's directory, and none into the job's local directories where the map
   * outputs it fetches stay.
   */
  @Test
  void stockReduceSpillsGoToTheReduceLocalDirOnly() throws Exception {
    NumbersGenerator numbers =
        new NumbersGenerator(NUMBERS, 8, NumbersGenerator.Shape.SKEWED, 20140622);
    Path input = root.resolve("input");
    numbers.write(input);
    Path work = root.resolve("stock");
    Path jobLocal = Files.createDirectories(work.resolve("local"));
    Path reduceLocal = Files.createDirectories(root.resolve("reduce-disk"));
    Configuration conf = new Configuration();
    conf.setLong("mapreduce.reduce.memory.totalbytes", 2L << 20);
    conf.setInt("mapreduce.task.io.sort.mb", 8);
    conf.set(MedianShuffles.REDUCE_LOCAL_DIR, reduceLocal.toString());

    MedianRun.Result stock;
    Set<String> onReduceDisk;
    Set<String> inJobDirs;
    try (SpillFileProbe reduceProbe = SpillFileProbe.watch(reduceLocal);
        SpillFileProbe jobProbe = SpillFileProbe.watch(jobLocal)) {
      stock = MedianRun.run(conf, MedianRun.Merger.STOCK, input, work, new long[] {NUMBERS});
      reduceProbe.close();
      jobProbe.close();
      onReduceDisk = reduceProbe.seen();
      inJobDirs = jobProbe.seen();
    }

    assertThat(stock.succeeded).isTrue();
    assertThat(stock.output)
        .isEqualTo(
            NumbersGenerator.format(numbers.lowerMedian(value -> true)) + "\t" + NUMBERS + "\n");
    assertThat(onReduceDisk).isNotEmpty().isEqualTo(stock.spillFiles);
    assertThat(inJobDirs).isEmpty();
  }
}
