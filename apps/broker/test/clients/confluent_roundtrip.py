"""confluent-kafka (librdkafka) client for the broker's integration tests.

produce <bootstrap> <topic> <count>: idempotent producer (enable.idempotence, acks=all), keyed messages with
  headers; prints one JSON object: delivered messages with partition/offset and any delivery errors.
consume <bootstrap> <topic> <group> <count>: a consumer group member reading from the earliest offset until
  <count> messages arrived; commits synchronously; prints the messages as JSON.
admin <bootstrap> <topic>: AdminClient creates the topic with 2 partitions, raises it to 4 (create_partitions),
  sets its configs (alter_configs), tries a bad value and a lower partition count, and prints what
  list_topics and describe_configs report, with the error codes of the refused calls, as JSON.
"""
import json
import sys
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer
from confluent_kafka.admin import AdminClient, ConfigResource, NewPartitions, NewTopic


def produce(bootstrap, topic, count):
    producer = Producer({
        "bootstrap.servers": bootstrap,
        "enable.idempotence": True,
        "acks": "all",
        "linger.ms": 5,
        "message.timeout.ms": 60000,
    })
    delivered = []
    errors = []

    def report(error, message):
        if error is not None:
            errors.append(str(error))
        else:
            delivered.append({"key": message.key().decode(), "partition": message.partition(), "offset": message.offset()})

    for index in range(count):
        key = "py-%d" % index
        producer.produce(topic, key=key, value=("value-%d-" % index) + "x" * (index % 97),
                         headers=[("index", str(index).encode()), ("lang", b"python")], on_delivery=report)
        producer.poll(0)
    remaining = producer.flush(60)
    print(json.dumps({"delivered": delivered, "errors": errors, "undelivered": remaining}))


def consume(bootstrap, topic, group, count):
    consumer = Consumer({
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "session.timeout.ms": 10000,
    })
    consumer.subscribe([topic])
    received = []
    deadline = time.time() + 90
    while len(received) < count and time.time() < deadline:
        message = consumer.poll(0.5)
        if message is None:
            continue
        if message.error() is not None:
            if message.error().code() == KafkaError._PARTITION_EOF:
                continue
            print(json.dumps({"error": str(message.error())}))
            sys.exit(1)
        received.append({
            "key": message.key().decode(),
            "value": message.value().decode(),
            "headers": [[name, value.decode()] for name, value in (message.headers() or [])],
            "partition": message.partition(),
            "offset": message.offset(),
        })
    consumer.commit(asynchronous=False)
    consumer.close()
    print(json.dumps({"received": received}))


def refusal(future):
    try:
        future.result(30)
        return "none"
    except KafkaException as exception:
        return exception.args[0].name()


def admin(bootstrap, topic):
    client = AdminClient({"bootstrap.servers": bootstrap})
    client.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)])[topic].result(30)
    client.create_partitions([NewPartitions(topic, 4)])[topic].result(30)
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic, set_config={"retention.ms": "3600000", "cleanup.policy": "delete"})
    list(client.alter_configs([resource]).values())[0].result(30)
    bad = ConfigResource(ConfigResource.Type.TOPIC, topic, set_config={"retention.ms": "soon"})
    refused_config = refusal(list(client.alter_configs([bad]).values())[0])
    refused_partitions = refusal(client.create_partitions([NewPartitions(topic, 3)])[topic])
    described = list(client.describe_configs([ConfigResource(ConfigResource.Type.TOPIC, topic)]).values())[0].result(30)
    explicit = {name: entry.value for name, entry in described.items()
                if entry.source == 1 and not name.startswith("nereus.")}
    partitions = len(client.list_topics(topic, timeout=30).topics[topic].partitions)
    print(json.dumps({"partitions": partitions, "configs": explicit, "refusedConfig": refused_config,
                      "refusedPartitions": refused_partitions}))


if __name__ == "__main__":
    if sys.argv[1] == "produce":
        produce(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "admin":
        admin(sys.argv[2], sys.argv[3])
    else:
        consume(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
