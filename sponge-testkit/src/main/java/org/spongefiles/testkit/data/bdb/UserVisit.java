package org.spongefiles.testkit.data.bdb;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/**
 * One row of the Big Data Benchmark's {@code UserVisits} table: {@code sourceIP, destURL,
 * visitDate, adRevenue, userAgent, countryCode, languageCode, searchWord, duration}. As a Writable
 * it is what a conventional reducer holds per value: one object and six Text objects, each with its
 * own byte array.
 */
public final class UserVisit implements Writable {
  private final Text sourceIp = new Text();
  private final Text destUrl = new Text();
  private final Text visitDate = new Text();
  private float adRevenue;
  private final Text userAgent = new Text();
  private final Text countryCode = new Text();
  private final Text languageCode = new Text();
  private final Text searchWord = new Text();
  private int duration;

  public Text sourceIp() {
    return sourceIp;
  }

  public Text destUrl() {
    return destUrl;
  }

  public Text visitDate() {
    return visitDate;
  }

  public float adRevenue() {
    return adRevenue;
  }

  public Text userAgent() {
    return userAgent;
  }

  public Text countryCode() {
    return countryCode;
  }

  public Text languageCode() {
    return languageCode;
  }

  public Text searchWord() {
    return searchWord;
  }

  public int duration() {
    return duration;
  }

  public UserVisit set(
      String sourceIp,
      String destUrl,
      String visitDate,
      float adRevenue,
      String userAgent,
      String countryCode,
      String languageCode,
      String searchWord,
      int duration) {
    this.sourceIp.set(sourceIp);
    this.destUrl.set(destUrl);
    this.visitDate.set(visitDate);
    this.adRevenue = adRevenue;
    this.userAgent.set(userAgent);
    this.countryCode.set(countryCode);
    this.languageCode.set(languageCode);
    this.searchWord.set(searchWord);
    this.duration = duration;
    return this;
  }

  /** Parses a CSV line of nine fields; the message names the line when it cannot. */
  public UserVisit parse(String line) {
    String[] f = line.split(",", -1);
    if (f.length != 9) {
      throw new IllegalArgumentException(
          "UserVisits line has " + f.length + " fields, expected 9: '" + line + "'");
    }
    try {
      return set(
          f[0], f[1], f[2], Float.parseFloat(f[3]), f[4], f[5], f[6], f[7], Integer.parseInt(f[8]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("UserVisits line has a bad number: '" + line + "'", e);
    }
  }

  public String toCsv() {
    return String.join(
        ",",
        sourceIp.toString(),
        destUrl.toString(),
        visitDate.toString(),
        Float.toString(adRevenue),
        userAgent.toString(),
        countryCode.toString(),
        languageCode.toString(),
        searchWord.toString(),
        Integer.toString(duration));
  }

  @Override
  public void write(DataOutput out) throws IOException {
    sourceIp.write(out);
    destUrl.write(out);
    visitDate.write(out);
    out.writeFloat(adRevenue);
    userAgent.write(out);
    countryCode.write(out);
    languageCode.write(out);
    searchWord.write(out);
    out.writeInt(duration);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    sourceIp.readFields(in);
    destUrl.readFields(in);
    visitDate.readFields(in);
    adRevenue = in.readFloat();
    userAgent.readFields(in);
    countryCode.readFields(in);
    languageCode.readFields(in);
    searchWord.readFields(in);
    duration = in.readInt();
  }

  @Override
  public String toString() {
    return toCsv();
  }
}
