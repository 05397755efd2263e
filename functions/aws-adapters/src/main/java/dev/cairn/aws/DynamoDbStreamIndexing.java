package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The AWS counterpart of the local poller: a DynamoDB Streams event (as Lambda delivers it) names the memories that
 * changed, and each is brought up to date in the vector index.
 *
 * <p>The stream record is only a notification. What to index is read back from the table with a strongly consistent
 * read ({@link Indexer#bringUpToDate}), so duplicated, reordered or stale records do no harm, and a record that
 * arrives after a newer change was already indexed does nothing. On the first failure the answer names that record's
 * sequence number as the batch's first failed item (Lambda's partial batch response with
 * {@code ReportBatchItemFailures}): Lambda retries from there, with the back-off and retry limit of the event source
 * mapping; nothing earlier is processed twice.
 *
 * <p>A {@code REMOVE} of a memory item is its tombstone's purge: the index documents are gone already (a tombstone
 * is purged only after them), and the memory's cold copy goes now ({@link Indexer#forget}), since the API function
 * that purged the tombstone may not hold the cold tier.
 */
public final class DynamoDbStreamIndexing {

    /**
     * The stream view this needs: a record's keys only, since the item is read back anyway. The CDK stack's table
     * stream must carry at least these (TableDefinitionCrossCheckTest, integration-tests).
     */
    public static final StreamViewType STREAM_VIEW_TYPE = StreamViewType.KEYS_ONLY;

    private static final System.Logger LOG = System.getLogger(DynamoDbStreamIndexing.class.getName());

    private final Indexer indexer;

    public DynamoDbStreamIndexing(Indexer indexer) {
        this.indexer = indexer;
    }

    /** What one event did: records seen, memories that needed indexing, and the failed item if any. */
    public record Outcome(int records, int indexed, String firstFailedSequenceNumber) {

        /** Lambda's partial batch response. */
        public Map<String, Object> response() {
            List<Map<String, String>> failures = firstFailedSequenceNumber == null
                    ? List.of()
                    : List.of(Map.of("itemIdentifier", firstFailedSequenceNumber));
            return Map.of("batchItemFailures", failures);
        }
    }

    public Outcome handle(JsonNode event) {
        int records = 0;
        int indexed = 0;
        Set<String> done = new HashSet<>();
        for (JsonNode record : event.path("Records")) {
            records++;
            JsonNode ddb = record.path("dynamodb");
            String pk = ddb.path("Keys").path(DynamoDbMemoryStore.PK).path("S").asText("");
            String sk = ddb.path("Keys").path(DynamoDbMemoryStore.SK).path("S").asText("");
            if (!pk.startsWith("T#") || !sk.startsWith("M#")) {
                continue; // not a memory item
            }
            boolean purged = "REMOVE".equals(record.path("eventName").asText());
            if (!done.add(pk + "|" + sk + (purged ? "|REMOVE" : ""))) {
                continue; // this batch already brought the memory to its latest state
            }
            try {
                Id team = new Id(pk.substring(2));
                Id id = new Id(sk.substring(2));
                if (purged) {
                    indexer.forget(team, id);
                } else if (indexer.bringUpToDate(team, id)) {
                    indexed++;
                }
            } catch (RuntimeException e) {
                // the kind of failure only: messages of adapters never carry memory content
                LOG.log(
                        System.Logger.Level.WARNING,
                        "indexing {0}/{1} failed, Lambda will retry from record {2}: {3}",
                        pk,
                        sk,
                        ddb.path("SequenceNumber").asText(),
                        e.toString());
                return new Outcome(records, indexed, ddb.path("SequenceNumber").asText());
            }
        }
        return new Outcome(records, indexed, null);
    }
}
