package org.spongefiles.core.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * REPORTS body, a relay's batch of its rack's reports as it hands them to the leading tracker:
 *
 * <pre>
 * i32 n, n x REPORT body   the newest report of each server since the last batch
 * </pre>
 */
public final class FreeReports {
  /** The fewest bytes one REPORT body takes: an empty endpoint and three i32. */
  private static final int LEAST_REPORT_BYTES = 2 + 12;

  public final List<FreeReport> reports;

  public FreeReports(Collection<FreeReport> reports) {
    this.reports = List.copyOf(reports);
  }

  /**
   * {@code reports} in batches whose bodies are each at most {@code maxBytes} (a report bigger than
   * that alone still gets a batch of its own), in order.
   */
  public static List<FreeReports> inBatches(Collection<FreeReport> reports, int maxBytes) {
    List<FreeReports> batches = new ArrayList<>();
    List<FreeReport> batch = new ArrayList<>();
    int size = 4;
    for (FreeReport report : reports) {
      if (!batch.isEmpty() && size + report.size() > maxBytes) {
        batches.add(new FreeReports(batch));
        batch = new ArrayList<>();
        size = 4;
      }
      batch.add(report);
      size += report.size();
    }
    if (!batch.isEmpty()) {
      batches.add(new FreeReports(batch));
    }
    return batches;
  }

  public ByteBuffer encode() {
    int size = 4;
    for (FreeReport report : reports) {
      size += report.size();
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.putInt(reports.size());
    for (FreeReport report : reports) {
      report.put(out);
    }
    return out.flip();
  }

  /**
   * @throws WireException MALFORMED_FRAME naming the peer and field when the body is truncated, too
   *     long, or one of its reports is (see {@link FreeReport#decode})
   */
  public static FreeReports decode(ByteBuffer in, String peer) throws WireException {
    int count = Codec.getCount(in, LEAST_REPORT_BYTES, peer, "report");
    List<FreeReport> reports = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      reports.add(FreeReport.read(in, peer));
    }
    Codec.requireEnd(in, peer, "REPORTS");
    return new FreeReports(reports);
  }
}
