// Apache Pulsar's Java admin client (pulsar-client-admin-original 4.2.4, with pulsar-client-original to produce and
// consume; the harness's "pulsar-client" Maven set) against the broker's /admin/v2 API, compiled with javac at test
// time. One scenario per run; every fact goes to stdout as one `KEY value...` line for the test to check, and an
// admin call that fails prints `ERROR <step> <exception class> <status>`:
//   scenario admin=<http url> service=<pulsar url> topic=<persistent://...> tenant=<name> count=<messages>
// The scenario: clusters, tenants and namespaces; namespace and topic policies (deduplication, automatic topic
// creation refusing a subscription on a missing topic); a 3-partition topic created and listed; a subscription
// created at earliest; `count` messages produced round-robin without batching (half, a pause, the other half);
// partitioned stats; reset by time to the pause; reset one partition to a message id (a consumer then receives that
// message first); skip 2 there; skip all; refusals (409, 404, 405); a non-partitioned topic's peeked messages, stats
// and internal stats; the subscription and both topics deleted.
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminException;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.common.naming.TopicName;
import org.apache.pulsar.common.policies.data.AutoTopicCreationOverride;
import org.apache.pulsar.common.policies.data.PartitionedTopicStats;
import org.apache.pulsar.common.policies.data.PersistentTopicInternalStats;
import org.apache.pulsar.common.policies.data.TenantInfo;
import org.apache.pulsar.common.policies.data.TopicStats;

public final class JavaPulsarAdmin {
  private static final String SUBSCRIPTION = "audit";

  private JavaPulsarAdmin() {}

  /** One admin call that may fail: the failure becomes an ERROR line. */
  @FunctionalInterface
  private interface AdminCall {
    void run() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new TreeMap<>();
    for (String arg : args) {
      int at = arg.indexOf('=');
      if (at > 0) options.put(arg.substring(0, at), arg.substring(at + 1));
    }
    try (PulsarAdmin admin = PulsarAdmin.builder().serviceHttpUrl(options.get("admin")).build();
        PulsarClient client = PulsarClient.builder().serviceUrl(options.get("service")).build()) {
      scenario(admin, client, options);
    }
    System.out.flush();
    System.exit(0);
  }

  private static void scenario(PulsarAdmin admin, PulsarClient client, Map<String, String> options)
      throws Exception {
    String topic = options.get("topic");
    String tenant = options.get("tenant");
    int count = Integer.parseInt(options.get("count"));
    List<String> clusters = admin.clusters().getClusters();
    say("CLUSTERS", String.join(",", clusters));
    admin.tenants().createTenant(tenant, TenantInfo.builder().allowedClusters(Set.copyOf(clusters)).build());
    admin.namespaces().createNamespace(tenant + "/apps");
    say("TENANTS", String.join(",", admin.tenants().getTenants()));
    say("NAMESPACES", String.join(",", admin.namespaces().getNamespaces(tenant)));
    say("PUBLIC_NAMESPACES", String.join(",", admin.namespaces().getNamespaces("public")));
    policies(admin, tenant + "/apps");

    admin.topics().createPartitionedTopic(topic, 3);
    say("PARTITIONS", admin.topics().getPartitionedTopicMetadata(topic).partitions);
    say("PARTITIONED_LIST", String.join(",", admin.topics().getPartitionedTopicList("public/default")));
    List<String> list = new ArrayList<>(admin.topics().getList("public/default"));
    list.sort(null);
    say("LIST", String.join(",", list));
    attempt("create-again", () -> admin.topics().createPartitionedTopic(topic, 3));
    admin.topics().createSubscription(topic, SUBSCRIPTION, MessageId.earliest);
    say("SUBSCRIPTIONS", String.join(",", admin.topics().getSubscriptions(topic)));

    List<MessageIdAdv> ids = new ArrayList<>();
    long pause;
    try (Producer<byte[]> producer =
        client
            .newProducer()
            .topic(topic)
            .enableBatching(false)
            .messageRoutingMode(MessageRoutingMode.RoundRobinPartition)
            .create()) {
      for (int index = 0; index < count / 2; index++) ids.add(send(producer, index));
      Thread.sleep(50);
      pause = System.currentTimeMillis();
      Thread.sleep(50);
      for (int index = count / 2; index < count; index++) ids.add(send(producer, index));
    }
    PartitionedTopicStats stats = admin.topics().getPartitionedStats(topic, true);
    say("BACKLOG_AFTER_PRODUCE", backlog(stats));
    say("STORAGE_SIZE", stats.getStorageSize());
    for (int partition = 0; partition < 3; partition++) {
      say("PARTITION_BACKLOG", partition, partitionBacklog(admin, topic, partition));
    }

    admin.topics().resetCursor(topic, SUBSCRIPTION, pause);
    say("BACKLOG_AFTER_RESET_TIME", backlog(admin.topics().getPartitionedStats(topic, false)));

    MessageIdAdv target = ids.get(1);
    String partitionTopic = TopicName.get(topic).getPartition(target.getPartitionIndex()).toString();
    say("TARGET", target.getPartitionIndex(), target.getEntryId(), countFrom(ids, target));
    admin.topics().resetCursor(partitionTopic, SUBSCRIPTION, target);
    say("PARTITION_BACKLOG_AFTER_RESET_ID", partitionBacklog(admin, topic, target.getPartitionIndex()));
    try (Consumer<byte[]> consumer =
        client
            .newConsumer()
            .topic(partitionTopic)
            .subscriptionName(SUBSCRIPTION)
            .subscriptionType(SubscriptionType.Shared)
            .subscribe()) {
      Message<byte[]> first = consumer.receive(30, TimeUnit.SECONDS);
      say("FIRST_AFTER_RESET_ID", first == null ? "none" : new String(first.getValue()));
      say("CONSUMERS_WHILE_CONNECTED", admin.topics().getStats(partitionTopic).getSubscriptions()
          .get(SUBSCRIPTION).getConsumers().size());
      attempt("delete-subscription-in-use", () -> admin.topics().deleteSubscription(partitionTopic, SUBSCRIPTION));
    }
    admin.topics().skipMessages(partitionTopic, SUBSCRIPTION, 2);
    say("PARTITION_BACKLOG_AFTER_SKIP", partitionBacklog(admin, topic, target.getPartitionIndex()));
    attempt("skip-partitioned", () -> admin.topics().skipMessages(topic, SUBSCRIPTION, 1));
    attempt("stats-missing", () -> admin.topics().getStats(topic + "-missing"));

    admin.topics().skipAllMessages(topic, SUBSCRIPTION);
    say("BACKLOG_AFTER_SKIP_ALL", backlog(admin.topics().getPartitionedStats(topic, false)));

    String single = topic + "-single";
    admin.topics().createNonPartitionedTopic(single);
    try (Producer<byte[]> producer = client.newProducer().topic(single).enableBatching(false).create()) {
      for (int index = 0; index < 5; index++) send(producer, index);
    }
    admin.topics().createSubscription(single, SUBSCRIPTION, MessageId.earliest);
    List<String> peeked = new ArrayList<>();
    for (Message<byte[]> message : admin.topics().peekMessages(single, SUBSCRIPTION, 3)) {
      peeked.add(new String(message.getValue()) + "@" + message.getPublishTime());
    }
    say("PEEK", String.join(",", peeked));
    TopicStats singleStats = admin.topics().getStats(single);
    say("SINGLE_BACKLOG", singleStats.getSubscriptions().get(SUBSCRIPTION).getMsgBacklog());
    PersistentTopicInternalStats internal = admin.topics().getInternalStats(single);
    say("SINGLE_INTERNAL", internal.numberOfEntries, internal.lastConfirmedEntry,
        internal.cursors.get(SUBSCRIPTION).markDeletePosition);

    admin.topics().deleteSubscription(topic, SUBSCRIPTION);
    say("SUBSCRIPTIONS_AFTER_DELETE", String.join(",", admin.topics().getSubscriptions(topic)));
    admin.topics().deletePartitionedTopic(topic);
    admin.topics().delete(single, true);
    say("PARTITIONED_LIST_AFTER_DELETE", String.join(",", admin.topics().getPartitionedTopicList("public/default")));
    say("LIST_AFTER_DELETE", String.join(",", admin.topics().getList("public/default")));
    admin.namespaces().deleteNamespace(tenant + "/apps");
    admin.tenants().deleteTenant(tenant);
    say("TENANTS_AFTER_DELETE", String.join(",", admin.tenants().getTenants()));
    say("DONE");
  }

  /** Namespace and topic policies: deduplication and automatic topic creation, set, read and removed. */
  private static void policies(PulsarAdmin admin, String namespace) throws Exception {
    String topic = "persistent://" + namespace + "/policy-topic";
    say("NS_DEDUP_UNSET", admin.namespaces().getDeduplicationStatus(namespace));
    admin.namespaces().setDeduplicationStatus(namespace, true);
    say("NS_DEDUP", admin.namespaces().getDeduplicationStatus(namespace));
    admin.namespaces().setAutoTopicCreation(namespace,
        AutoTopicCreationOverride.builder().allowAutoTopicCreation(false).topicType("non-partitioned").build());
    AutoTopicCreationOverride auto = admin.namespaces().getAutoTopicCreation(namespace);
    say("NS_AUTO", auto.isAllowAutoTopicCreation(), auto.getTopicType());
    attempt("subscribe-without-auto-creation",
        () -> admin.topics().createSubscription(topic, SUBSCRIPTION, MessageId.earliest));
    admin.topicPolicies().setDeduplicationStatus(topic, false);
    say("TOPIC_DEDUP", admin.topicPolicies().getDeduplicationStatus(topic),
        admin.topicPolicies().getDeduplicationStatus(topic, true));
    admin.topicPolicies().removeDeduplicationStatus(topic);
    say("TOPIC_DEDUP_APPLIED_AFTER_REMOVE", admin.topicPolicies().getDeduplicationStatus(topic, true));
    admin.namespaces().removeAutoTopicCreation(namespace);
    admin.namespaces().removeDeduplicationStatus(namespace);
    say("NS_DEDUP_REMOVED", admin.namespaces().getDeduplicationStatus(namespace));
  }

  private static MessageIdAdv send(Producer<byte[]> producer, int index) throws Exception {
    return (MessageIdAdv) producer.newMessage().value(("m-" + index).getBytes()).send();
  }

  private static long backlog(PartitionedTopicStats stats) {
    return stats.getSubscriptions().get(SUBSCRIPTION).getMsgBacklog();
  }

  private static long partitionBacklog(PulsarAdmin admin, String topic, int partition) throws Exception {
    String name = TopicName.get(topic).getPartition(partition).toString();
    return admin.topics().getStats(name).getSubscriptions().get(SUBSCRIPTION).getMsgBacklog();
  }

  /** Messages of `target`'s partition from it on. */
  private static long countFrom(List<MessageIdAdv> ids, MessageIdAdv target) {
    return ids.stream()
        .filter(id -> id.getPartitionIndex() == target.getPartitionIndex() && id.getEntryId() >= target.getEntryId())
        .count();
  }

  private static void attempt(String step, AdminCall call) {
    try {
      call.run();
      say("UNEXPECTED_SUCCESS", step);
    } catch (PulsarAdminException error) {
      say("ERROR", step, error.getClass().getSimpleName(), error.getStatusCode());
    } catch (Exception error) {
      say("ERROR", step, error.getClass().getSimpleName(), -1);
    }
  }

  private static void say(Object... parts) {
    StringBuilder line = new StringBuilder();
    for (Object part : parts) {
      if (line.length() > 0) line.append(' ');
      line.append(part);
    }
    System.out.println(line);
  }
}
