"""The aclnn parameter objects and their vocabulary: dtypes, formats, shapes, handles."""
