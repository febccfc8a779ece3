import { HStack } from "@chakra-ui/react";
import { ActionButton } from "../../../components/action-button.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useRelations, useSetRelation } from "../api/relations.ts";

/**
 * Block and Mute on someone's profile. Blocking stops them following, commenting on, messaging and tipping you and
 * hides their comments on your posts; muting hides them from your feed and notifications. Neither tells them.
 */
export function RelationButtons({ userId, name }: { userId: string; name: string }) {
  const relations = useRelations();
  const set = useSetRelation();
  if (!relations.data) return null;
  const blocking = relations.data.blocked.some((user) => user.id === userId);
  const muting = relations.data.muted.some((user) => user.id === userId);
  return (
    <>
      <HStack gap="2">
        <ActionButton
          size="sm"
          variant="outline"
          busy={set.isPending}
          aria-pressed={muting}
          onClick={() => set.mutate({ userId, relation: "mute", on: !muting })}
        >
          {muting ? "Unmute" : "Mute"}
        </ActionButton>
        <ActionButton
          size="sm"
          variant="outline"
          colorPalette="red"
          busy={set.isPending}
          aria-pressed={blocking}
          onClick={() => {
            if (
              blocking ||
              window.confirm(
                `Block ${name}? They will no longer follow you, comment on your posts, message or tip you, and their comments on your posts are hidden. They are not told.`,
              )
            )
              set.mutate({ userId, relation: "block", on: !blocking });
          }}
        >
          {blocking ? "Unblock" : "Block"}
        </ActionButton>
      </HStack>
      <ErrorLines error={set.error} />
    </>
  );
}
