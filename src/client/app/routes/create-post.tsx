import { Container } from "@chakra-ui/react";
import { QueryState } from "../../components/query-state.tsx";
import { useCategories } from "../../features/categories/api/get-categories.ts";
import { CreatePostForm } from "../../features/posts/components/create-post-form.tsx";

export function CreatePostRoute() {
  const categories = useCategories();
  return (
    <Container maxW="3xl" py="8">
      <QueryState query={categories} label="Loading categories">
        {(data) => <CreatePostForm categories={data.items} />}
      </QueryState>
    </Container>
  );
}
