package org.spongefiles.workloads.pig;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.testkit.data.WebCrawlGenerator;

/** The one-line reason a Pig child gives for not finishing, read from its log and its output. */
class PigAttemptTest {

  private static PigAttempt died(int exitCode, String... tail) {
    return new PigAttempt(
        List.of(),
        List.of(),
        false,
        exitCode,
        "Pig child exited " + exitCode + " (log child.log):\n" + String.join("\n", tail));
  }

  @Test
  void namesTheInnermostCauseAndWhereOutsideTheJdkItWasThrown() {
    PigAttempt attempt =
        died(
            1,
            "java.lang.Exception: org.apache.pig.backend.executionengine.ExecException: ERROR 0",
            "\tat org.apache.hadoop.mapred.LocalJobRunner$Job.runTasks(LocalJobRunner.java:492)",
            "Caused by: org.apache.pig.backend.executionengine.ExecException: ERROR 0: UDF",
            "\tat org.apache.pig.backend.hadoop.PhysicalOperator.getNext(PhysicalOperator.java:367)",
            "Caused by: java.util.ConcurrentModificationException",
            "\tat java.base/java.util.ArrayList$Itr.checkForComodification(ArrayList.java:1013)",
            "\tat org.apache.pig.data.SortedDataBag$SortedDataBagIterator.next(SortedDataBag.java:322)",
            "\t... 15 more",
            "Exception in thread \"main\" java.lang.IllegalStateException: QUANTILES failed");

    assertThat(attempt.reason())
        .isEqualTo(
            "exited 1: java.util.ConcurrentModificationException at"
                + " org.apache.pig.data.SortedDataBag$SortedDataBagIterator.next(SortedDataBag.java:322)");
  }

  @Test
  void withoutACauseNamesTheLastExceptionOrError() {
    PigAttempt attempt =
        died(
            3,
            "12:00:00,000 INFO SpillableMemoryManager: Spilled an estimate of 1 bytes",
            "Terminating due to java.lang.OutOfMemoryError: Java heap space");

    assertThat(attempt.reason())
        .isEqualTo("exited 3: Terminating due to java.lang.OutOfMemoryError: Java heap space");
  }

  @Test
  void aChildKilledWithoutALineSaysSo() {
    assertThat(died(137, "12:00:00,000 INFO SpillableMemoryManager: Selected heap").reason())
        .isEqualTo("exited 137: no exception in its log's tail");
  }

  @Test
  void aChildEndedByExitOnOutOfMemoryErrorSaysSo(@TempDir Path dir) throws Exception {
    Path pages = dir.resolve("pages");
    new WebCrawlGenerator(7).write(pages, 100, 1);
    PigAttempt attempt =
        new PigJvm(pages, dir.resolve("work"))
            .heap("12m")
            .jvmOptions("-XX:+ExitOnOutOfMemoryError")
            .queries(PigQuery.ANCHORTEXT)
            .attempt();

    assertThat(attempt.finished()).isFalse();
    // The JVM writes why it ended on the child's standard output, which the attempt keeps.
    assertThat(attempt.reason())
        .isEqualTo("exited 3: Terminating due to java.lang.OutOfMemoryError: Java heap space");
  }

  @Test
  void aFinishedChildHasNoReason() {
    assertThat(new PigAttempt(List.of(), List.of(), true, 0, "").reason()).isEmpty();
  }
}
