import { Avatar, HStack, Link, Stack, Text } from "@chakra-ui/react";
import { imageAt } from "#shared/images.ts";
import type { UserSummary } from "#shared/schemas/users.ts";
import { fullName } from "../lib/format.ts";
import { RouterLink } from "./router-link.tsx";

interface UserChipProps {
  user: Pick<UserSummary, "id" | "firstName" | "lastName" | "profilePhoto">;
  size?: "xs" | "sm";
  /** Links the name to the profile (the default); admin tables show the name as text. */
  link?: boolean;
  /** A second line under the name (an admin sees the e-mail there). */
  detail?: React.ReactNode;
  fontSize?: "xs" | "sm" | "md";
  children?: React.ReactNode;
}

/** A user's photo (or initials) and name, as posts, comments and lists show who wrote or did something. */
export function UserChip({ user, size = "xs", link = true, detail, fontSize, children }: UserChipProps) {
  const name = fullName(user);
  return (
    <HStack gap={size === "xs" ? "2" : "3"} wrap="wrap">
      <Avatar.Root size={size}>
        <Avatar.Fallback name={name} />
        {user.profilePhoto && <Avatar.Image src={imageAt(user.profilePhoto, "photo", 128)} alt="" />}
      </Avatar.Root>
      <Stack gap="0">
        {link ? (
          <Link asChild fontSize={fontSize} fontWeight="medium">
            <RouterLink to={`/profile/${user.id}`}>{name}</RouterLink>
          </Link>
        ) : (
          <Text fontSize={fontSize} fontWeight="medium">
            {name}
          </Text>
        )}
        {detail && (
          <Text fontSize="xs" color="fg.muted">
            {detail}
          </Text>
        )}
      </Stack>
      {children}
    </HStack>
  );
}
