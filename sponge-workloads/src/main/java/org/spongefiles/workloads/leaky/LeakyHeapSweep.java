package org.spongefiles.workloads.leaky;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.spongefiles.testkit.ChildProcesses;
import org.spongefiles.workloads.BenchReport;

/**
 * Runs one workload's reduce phase ({@link LeakyBenchChild}) in child JVMs at given heaps and finds
 * the least heap at which a variant finishes with the reference output: the heap sweep of the
 * hot-key test and benchmark. Same -Xms/-Xmx and collector for every variant.
 */
public final class LeakyHeapSweep {
  private final Path work;
  private final Path poolDir;
  private final long timeoutSeconds;

  /**
   * @param work directory for the children's disk tier and log
   * @param poolDir the SpongeFiles pool directory the leaky children overflow to
   */
  public LeakyHeapSweep(Path work, Path poolDir, long timeoutSeconds) {
    this.work = work;
    this.poolDir = poolDir;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** What one child printed: its status ({@code ok}, {@code oom}, ...), output count and digest. */
  public static final class Outcome {
    public final int heapMb;
    public final String status;
    public final String out;
    public final String digest;
    public final double overflowMb;

    Outcome(int heapMb, String line) {
      this.heapMb = heapMb;
      this.status = line == null ? "failed" : field(line, "status");
      this.out = line == null ? "" : field(line, "out");
      this.digest = line == null ? "" : field(line, "digest");
      this.overflowMb = line == null ? 0 : Double.parseDouble(field(line, "overflow_mb"));
    }

    /** Finished with the same output as {@code reference}. */
    public boolean matches(Outcome reference) {
      return status.equals("ok") && out.equals(reference.out) && digest.equals(reference.digest);
    }

    @Override
    public String toString() {
      return heapMb + " MiB: " + status + " out=" + out + " digest=" + digest;
    }
  }

  /** Runs {@code variant} on {@code input} in a child JVM with {@code heapMb} MiB of heap. */
  public Outcome run(LeakyWorkload workload, String variant, Path input, int heapMb)
      throws IOException, InterruptedException {
    Path disk = Files.createDirectories(work.resolve("disk"));
    List<String> command =
        ChildProcesses.java(
            List.of("-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", "-XX:+UseParallelGC"),
            LeakyBenchChild.class,
            List.of(
                workload.name(), variant, input.toString(), poolDir.toString(), disk.toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.redirectError(ProcessBuilder.Redirect.appendTo(work.resolve("children.log").toFile()));
    Process process = builder.start();
    String result = null;
    try {
      for (String line : ChildProcesses.outputLines(process)) {
        if (line.startsWith("RESULT ")) {
          result = line;
        }
      }
    } finally {
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
    return new Outcome(heapMb, result);
  }

  /**
   * The least of {@code heapsMb} (largest first) at which {@code variant} matches {@code
   * reference}, going down until the first heap where it does not; -1 when it fails at the first.
   */
  public int leastHeap(
      LeakyWorkload workload, String variant, Path input, int[] heapsMb, Outcome reference)
      throws IOException, InterruptedException {
    int least = -1;
    for (int heap : heapsMb) {
      // The naive reducer's reference run at the same heap is not repeated.
      Outcome outcome =
          variant.equals("baseline") && heap == reference.heapMb
              ? reference
              : run(workload, variant, input, heap);
      BenchReport.info("%s %s %s", workload, variant, outcome);
      if (!outcome.matches(reference)) {
        break;
      }
      least = heap;
    }
    return least;
  }

  private static String field(String line, String name) {
    for (String field : line.split(" ")) {
      if (field.startsWith(name + "=")) {
        return field.substring(name.length() + 1);
      }
    }
    throw new IllegalStateException("no " + name + " in " + line);
  }

  /** Heaps from {@code top} down by {@code step} to {@code floor}, largest first. */
  public static int[] heaps(int top, int floor, double step) {
    List<Integer> heaps = new ArrayList<>();
    for (double heap = top; heap >= floor; heap *= step) {
      heaps.add((int) heap);
    }
    return heaps.stream().mapToInt(Integer::intValue).toArray();
  }
}
