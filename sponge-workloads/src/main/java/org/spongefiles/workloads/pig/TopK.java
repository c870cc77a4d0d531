package org.spongefiles.workloads.pig;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pig.EvalFunc;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DataType;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;
import org.apache.pig.impl.logicalLayer.schema.Schema;

/**
 * The Frequent Anchortext UDF: the {@code k} most frequent anchortext terms of a group of pages,
 * with how many pages use each and the best-linked of them. A holistic function: it needs the whole
 * group, and reads it twice (counting terms, then finding their pages), as the paper's UDFs make
 * several passes. Input: a bag of (anchortext, url, inlinks, ...); output: a bag of (term,
 * occurrences, pages, best_url), most frequent first, ties by term.
 */
public final class TopK extends EvalFunc<DataBag> {
  private final int k;

  public TopK(String k) {
    this.k = UdfArgs.intAtLeast("TopK", "k", k, 1);
  }

  /** The best page using a term so far. */
  private static final class Best {
    final String term;
    final long occurrences;
    long pages;
    String url;
    int inlinks = -1;

    Best(String term, long occurrences) {
      this.term = term;
      this.occurrences = occurrences;
    }

    void offer(String candidate, int links) {
      pages++;
      if (links > inlinks || links == inlinks && candidate.compareTo(url) < 0) {
        url = candidate;
        inlinks = links;
      }
    }
  }

  @Override
  public DataBag exec(Tuple input) throws IOException {
    if (input == null || input.size() == 0 || input.get(0) == null) {
      return null;
    }
    DataBag pages = (DataBag) input.get(0);
    Map<String, long[]> counts = new HashMap<>();
    for (Tuple page : pages) {
      for (String term : terms(page)) {
        counts.computeIfAbsent(term, t -> new long[1])[0]++;
      }
    }
    Map<String, Best> top = new HashMap<>();
    for (Map.Entry<String, long[]> entry : topTerms(counts)) {
      top.put(entry.getKey(), new Best(entry.getKey(), entry.getValue()[0]));
    }
    for (Tuple page : pages) {
      Set<String> used = new HashSet<>(terms(page));
      for (String term : used) {
        Best best = top.get(term);
        if (best != null) {
          Integer links = (Integer) page.get(2);
          best.offer((String) page.get(1), links == null ? 0 : links);
        }
      }
    }
    List<Best> ranked = new ArrayList<>(top.values());
    ranked.sort(
        (a, b) ->
            a.occurrences != b.occurrences
                ? Long.compare(b.occurrences, a.occurrences)
                : a.term.compareTo(b.term));
    DataBag result = BagFactory.getInstance().newDefaultBag();
    for (Best best : ranked) {
      Tuple row = TupleFactory.getInstance().newTuple(4);
      row.set(0, best.term);
      row.set(1, best.occurrences);
      row.set(2, best.pages);
      row.set(3, best.url);
      result.add(row);
    }
    return result;
  }

  private List<Map.Entry<String, long[]>> topTerms(Map<String, long[]> counts) {
    List<Map.Entry<String, long[]>> all = new ArrayList<>(counts.entrySet());
    all.sort(
        (a, b) ->
            a.getValue()[0] != b.getValue()[0]
                ? Long.compare(b.getValue()[0], a.getValue()[0])
                : a.getKey().compareTo(b.getKey()));
    return all.subList(0, Math.min(k, all.size()));
  }

  private static List<String> terms(Tuple page) throws IOException {
    String text = (String) page.get(0);
    List<String> terms = new ArrayList<>();
    if (text != null) {
      for (String term : text.split(" ")) {
        if (!term.isEmpty()) {
          terms.add(term);
        }
      }
    }
    return terms;
  }

  @Override
  public Schema outputSchema(Schema input) {
    Schema row = new Schema();
    row.add(new Schema.FieldSchema("term", DataType.CHARARRAY));
    row.add(new Schema.FieldSchema("occurrences", DataType.LONG));
    row.add(new Schema.FieldSchema("pages", DataType.LONG));
    row.add(new Schema.FieldSchema("best_url", DataType.CHARARRAY));
    try {
      return new Schema(new Schema.FieldSchema("top", row, DataType.BAG));
    } catch (org.apache.pig.impl.logicalLayer.FrontendException e) {
      throw new IllegalStateException(e);
    }
  }
}
