import { Container } from "@chakra-ui/react";
import { CreatePostForm } from "../../features/posts/components/create-post-form.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";
import { pageTitles } from "../page-heads.ts";

export function CreatePostRoute() {
  usePageTitle(pageTitles.createPost);
  return (
    <Container maxW="3xl" py="8">
      <CreatePostForm />
    </Container>
  );
}
