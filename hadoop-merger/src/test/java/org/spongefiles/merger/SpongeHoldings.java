package org.spongefiles.merger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.SharedPool;

/**
 * What a task attempt holds of SpongeFiles, seen from outside it: chunks in use in the pool of its
 * configuration (a test's private pool, so every chunk in use is the test's), files in its
 * disk-tier directories, and live threads named after the attempt (SpongeFile I/O, the in-memory
 * merger).
 */
final class SpongeHoldings {
  final int poolChunksInUse;
  final List<Path> diskFiles;
  final List<String> threads;

  private SpongeHoldings(int poolChunksInUse, List<Path> diskFiles, List<String> threads) {
    this.poolChunksInUse = poolChunksInUse;
    this.diskFiles = diskFiles;
    this.threads = threads;
  }

  static SpongeHoldings of(Configuration conf, String attempt) {
    try (SharedPool pool = SharedPool.open(SpongeSettings.poolSpec(ConfigValues.reading(conf)))) {
      int inUse = pool.chunkCount() - pool.freeChunks();
      return new SpongeHoldings(inUse, diskFiles(conf), threads(attempt));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> diskFiles(Configuration conf) throws IOException {
    List<Path> files = new java.util.ArrayList<>();
    for (String dir : conf.getTrimmedStrings(SpongeOptions.DISK_DIRS.key())) {
      try (Stream<Path> walk = Files.walk(Path.of(dir))) {
        walk.filter(Files::isRegularFile).forEach(files::add);
      }
    }
    return files;
  }

  private static List<String> threads(String attempt) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith("sponge-") && name.contains(attempt))
        .sorted()
        .collect(Collectors.toList());
  }

  @Override
  public String toString() {
    return poolChunksInUse
        + " pool chunks in use, disk files "
        + diskFiles
        + ", threads "
        + threads;
  }
}
