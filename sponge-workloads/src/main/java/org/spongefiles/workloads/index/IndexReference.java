package org.spongefiles.workloads.index;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link IndexJob} must answer, computed by replaying the documents into sorted maps instead
 * of a job: the reducers' outputs concatenated in partition order, each its terms in order, one
 * line per term and document with the positions ascending.
 */
public final class IndexReference {
  private IndexReference() {}

  /** The job's output for {@code input} with {@code reducers} reducers, parts concatenated. */
  public static String output(IndexInput input, int reducers) {
    List<Map<String, Map<Long, List<Integer>>>> parts = new ArrayList<>();
    for (int p = 0; p < reducers; p++) {
      parts.add(new TreeMap<>());
    }
    for (long doc = 0; doc < input.documents(); doc++) {
      String[] words = input.words(doc);
      for (int position = 0; position < words.length; position++) {
        long d = doc;
        parts
            .get(IndexJob.partition(words[position], reducers))
            .computeIfAbsent(words[position], term -> new TreeMap<>())
            .computeIfAbsent(d, key -> new ArrayList<>())
            .add(position);
      }
    }
    StringBuilder text = new StringBuilder();
    for (Map<String, Map<Long, List<Integer>>> part : parts) {
      for (Map.Entry<String, Map<Long, List<Integer>>> term : part.entrySet()) {
        for (Map.Entry<Long, List<Integer>> doc : term.getValue().entrySet()) {
          text.append(term.getKey()).append('\t').append(doc.getKey()).append('\t');
          List<Integer> positions = doc.getValue();
          for (int i = 0; i < positions.size(); i++) {
            text.append(i == 0 ? "" : ",").append(positions.get(i));
          }
          text.append('\n');
        }
      }
    }
    return text.toString();
  }

  /** The share of all postings that goes to the busiest of {@code reducers} reducers. */
  public static double hottestShare(IndexInput input, int reducers) {
    long[] postings = new long[reducers];
    for (long doc = 0; doc < input.documents(); doc++) {
      for (String word : input.words(doc)) {
        postings[IndexJob.partition(word, reducers)]++;
      }
    }
    long max = 0;
    long total = 0;
    for (long count : postings) {
      max = Math.max(max, count);
      total += count;
    }
    return max / (double) total;
  }
}
