// Kafka's topic-name rules (Topic.validate): 1-249 characters of [a-zA-Z0-9._-], not "." or "..". Names that
// differ only by '.' versus '_' collide in Kafka's metric names, so creating one while the other exists is refused.

/** Longest legal topic name. */
const MAX_TOPIC_NAME_LENGTH = 249;

const LEGAL = /^[a-zA-Z0-9._-]+$/;

/** Why `name` is not a legal topic name, or undefined when it is. */
export function topicNameProblem(name: string | null): string | undefined {
  if (name === null || name.length === 0) return "Topic name is illegal, it can't be empty";
  if (name === "." || name === "..") return 'Topic name cannot be "." or ".."';
  if (name.length > MAX_TOPIC_NAME_LENGTH) {
    return `Topic name is illegal, it can't be longer than ${String(MAX_TOPIC_NAME_LENGTH)} characters, topic name: ${name}`;
  }
  if (!LEGAL.test(name))
    return `Topic name "${name}" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`;
  return undefined;
}

/** The form two colliding names share ('.' replaced by '_'). */
export function collisionForm(name: string): string {
  return name.replaceAll(".", "_");
}
