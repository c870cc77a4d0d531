package org.spongefiles.integration.demo;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.ChunkInfo;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;

/**
 * The first demo: a task spills 40 MiB into a SpongeFile while the node's shared pool has room for
 * only 16 MiB, so the rest falls through to local disk; the file is read back twice and checked,
 * and the demo prints where every chunk went.
 */
public final class SpongeDemo {
  private static final int MIB = 1 << 20;

  private SpongeDemo() {}

  public static void main(String[] args) throws Exception {
    Path shm = Path.of("/dev/shm");
    Path poolDir =
        Files.createTempDirectory(
            Files.isDirectory(shm) ? shm : Path.of("/tmp"), "sponge-demo-pool-");
    Path diskDir = Files.createTempDirectory("sponge-demo-disk-");
    Configuration conf = new Configuration(false);
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.size", "16m");
    conf.set("sponge.disk.dirs", diskDir.toString());
    try (SpongeTask task = SpongeTask.open(conf, "attempt_demo_0001_r_000000_0")) {
      System.out.println("SpongeFiles demo: one task, a 16 MiB shared pool, then local disk.");
      System.out.println("Tiers, nearest first: " + task.tiers());
      SpongeFile spill = task.create("reduce-spill");
      MessageDigest written = MessageDigest.getInstance("SHA-256");
      SplittableRandom random = new SplittableRandom(2014);
      byte[] record = new byte[64 << 10];
      try (OutputStream out = spill.output()) {
        for (int i = 0; i < 40 * MIB / record.length; i++) {
          random.nextBytes(record);
          out.write(record);
          written.update(record);
        }
      }
      byte[] expected = written.digest();
      System.out.printf(
          Locale.ROOT,
          "%nWrote %d MiB in %d chunks:%n",
          spill.length() / MIB,
          spill.chunks().size());
      printPlacement(spill.chunks());
      for (int pass = 1; pass <= 2; pass++) {
        MessageDigest read = MessageDigest.getInstance("SHA-256");
        try (SpongeInputStream in = spill.input()) {
          byte[] buffer = new byte[100_000];
          int n;
          while ((n = in.read(buffer)) > 0) {
            read.update(buffer, 0, n);
          }
        }
        boolean same = MessageDigest.isEqual(expected, read.digest());
        System.out.printf(
            Locale.ROOT, "Read pass %d: SHA-256 %s%n", pass, same ? "matches" : "DIFFERS");
        if (!same) {
          throw new AssertionError("read back different bytes");
        }
      }
      System.out.println();
      System.out.println("Task statistics:");
      System.out.println(task.stats());
      long pooled = task.stats().bytesWritten(TierKind.POOL);
      System.out.printf(
          Locale.ROOT,
          "%n%.0f%% of the spill stayed in memory; the disk tier got one file, not %d.%n",
          100.0 * pooled / spill.length(),
          task.stats().chunksWritten(TierKind.DISK));
    } finally {
      FileUtils.deleteDirectory(poolDir.toFile());
      FileUtils.deleteDirectory(diskDir.toFile());
    }
  }

  private static void printPlacement(List<ChunkInfo> chunks) {
    int start = 0;
    for (int i = 1; i <= chunks.size(); i++) {
      if (i == chunks.size() || chunks.get(i).tier() != chunks.get(start).tier()) {
        ChunkInfo first = chunks.get(start);
        System.out.printf(
            Locale.ROOT,
            "  chunks %2d-%2d  %-5s  e.g. %s%n",
            start,
            i - 1,
            first.tier().label(),
            first.location());
        start = i;
      }
    }
  }
}
