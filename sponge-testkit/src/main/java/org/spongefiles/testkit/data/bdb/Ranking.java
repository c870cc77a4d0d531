package org.spongefiles.testkit.data.bdb;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/**
 * One row of the Big Data Benchmark's {@code Rankings} table: {@code pageURL, pageRank,
 * avgDuration}, written as a CSV line in the benchmark's text files.
 */
public final class Ranking implements Writable {
  private final Text pageUrl = new Text();
  private int pageRank;
  private int avgDuration;

  public Text pageUrl() {
    return pageUrl;
  }

  public int pageRank() {
    return pageRank;
  }

  public int avgDuration() {
    return avgDuration;
  }

  public Ranking set(String pageUrl, int pageRank, int avgDuration) {
    this.pageUrl.set(pageUrl);
    this.pageRank = pageRank;
    this.avgDuration = avgDuration;
    return this;
  }

  /** Parses {@code pageURL,pageRank,avgDuration}; the message names the line when it cannot. */
  public Ranking parse(String line) {
    String[] fields = line.split(",", -1);
    if (fields.length != 3) {
      throw new IllegalArgumentException(
          "Rankings line has " + fields.length + " fields, expected 3: '" + line + "'");
    }
    try {
      return set(fields[0], Integer.parseInt(fields[1]), Integer.parseInt(fields[2]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Rankings line has a bad number: '" + line + "'", e);
    }
  }

  public String toCsv() {
    return pageUrl + "," + pageRank + "," + avgDuration;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    pageUrl.write(out);
    out.writeInt(pageRank);
    out.writeInt(avgDuration);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    pageUrl.readFields(in);
    pageRank = in.readInt();
    avgDuration = in.readInt();
  }

  @Override
  public String toString() {
    return toCsv();
  }
}
