/**
 * An inverted index with one hot reducer: documents whose words are mostly one hot term, so the
 * reducer of that term gets most of the shuffle's bytes; the job, its input and the answer it must
 * give computed without a job.
 */
package org.spongefiles.workloads.index;
