package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.testkit.TestDirs;

/**
 * With mapreduce.job.encrypted-intermediate-data=true, spills are encrypted with the job's spill
 * key exactly as Hadoop encrypts its own: no plaintext reaches a SpongeFile, and the job's output
 * is unchanged.
 */
class EncryptionTest {
  private static final String MARKER = "plaintext-marker-";

  private Path pool;
  private Path disk;

  @BeforeEach
  void setUp() {
    pool = TestDirs.newShmDir("crypto-pool");
    disk = TestDirs.newShmDir("crypto-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(pool);
    TestDirs.deleteTree(disk);
  }

  @Test
  void spillsHoldCiphertextAndReadBackAsWritten() throws Exception {
    ShuffleHarness harness = new ShuffleHarness(pool, disk);
    harness.conf.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
    UserGroupInformation reducer = UserGroupInformation.createRemoteUser("reducer");
    Credentials credentials = new Credentials();
    TokenCache.setEncryptedSpillKey(
        "0123456789abcdef".getBytes(StandardCharsets.US_ASCII), credentials);
    reducer.addCredentials(credentials);

    reducer.doAs(
        (PrivilegedExceptionAction<Void>)
            () -> {
              try (SpongeTask task = SpongeTask.open(harness.conf, "attempt_crypto_r_000000_0")) {
                Spills<Text, IntWritable> spills =
                    new Spills<>(
                        task,
                        harness.conf,
                        null,
                        64 << 10,
                        harness.reporter.getCounter(
                            org.apache.hadoop.mapreduce.TaskCounter.SPILLED_RECORDS),
                        null);
                SpongeFile file = spills.create("crypto");
                IFile.Writer<Text, IntWritable> writer = spills.writer(file);
                for (int i = 0; i < 5_000; i++) {
                  writer.append(new Text(MARKER + i), new IntWritable(i));
                }
                writer.close();

                byte[] stored;
                try (SpongeInputStream in = file.input()) {
                  stored = in.readAllBytes();
                }
                assertThat(stored.length).isGreaterThan(5_000 * MARKER.length());
                assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(MARKER);

                Segment<Text, IntWritable> segment =
                    spills.segment(
                        new SpilledSegment(file, writer.getRawLength(), false), 64 << 10);
                List<String> records =
                    ShuffleHarness.drain(
                        new SegmentMerger<>(
                                spills,
                                org.apache.hadoop.fs.FileSystem.getLocal(harness.conf),
                                new org.apache.hadoop.fs.Path("tmp"),
                                textOrder(),
                                harness.reporter)
                            .iterate(new java.util.ArrayList<>(List.of(segment)), null));
                assertThat(records).hasSize(5_000).contains(MARKER + "4999=4999");
                assertThat(file.state()).hasToString("DELETED");
              }
              return null;
            });
  }

  @Test
  void encryptedJobMatchesStock() throws Exception {
    try (LocalJobs jobs = new LocalJobs()) {
      Path input = jobs.newInput();
      Map<String, Integer> expected = TestJobs.writeWords(input, 10, 3_000, 60_000);

      LocalJobs.Run stock = jobs.stock(TestJobs::wordCount, input, EncryptionTest::encrypt);
      LocalJobs.Run ours = jobs.sponge(TestJobs::wordCount, input, EncryptionTest::encrypt);

      StockComparisonTest.assertSameOutput(stock, ours, TestJobs.render(expected));
      StockComparisonTest.assertSpilledToSpongeFilesOnly(stock, ours);
      assertThat(ours.sponge(MergerCounter.MAP_OUTPUTS_SPILLED)).isPositive();
    }
  }

  @SuppressWarnings("unchecked")
  private static org.apache.hadoop.io.RawComparator<Text> textOrder() {
    return (org.apache.hadoop.io.RawComparator<Text>)
        (org.apache.hadoop.io.RawComparator<?>) new Text.Comparator();
  }

  private static void encrypt(org.apache.hadoop.conf.Configuration conf) {
    conf.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
  }
}
